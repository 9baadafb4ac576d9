//! TLS to PostgreSQL, as libpq's `sslmode` and `sslrootcert` say (read by ward, since the
//! PostgreSQL client library takes only `disable`, `prefer` and `require`), with rustls:
//!
//! | `sslmode` | TLS | certificate checked |
//! |---|---|---|
//! | `disable` | never | - |
//! | `allow`, `prefer` (the default) | when the server offers it | no (as libpq) |
//! | `require` | always | no, unless `sslrootcert` is given: then the chain (as libpq) |
//! | `verify-ca` | always | the chain, against `sslrootcert` (else the public roots) |
//! | `verify-full` | always | the chain and the host name |
//!
//! Over a Unix socket there is no TLS (the server never offers it there), whatever the mode.

use crate::StoreError;
use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::{DigitallySignedStruct, SignatureScheme};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// libpq's `sslmode`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SslMode {
    /// `disable`.
    Disable,
    /// `allow` or `prefer` (libpq's default).
    #[default]
    Prefer,
    /// `require`.
    Require,
    /// `verify-ca`.
    VerifyCa,
    /// `verify-full`.
    VerifyFull,
}

impl SslMode {
    /// Reads a `sslmode` value.
    pub fn parse(s: &str) -> Option<SslMode> {
        Some(match s {
            "disable" => SslMode::Disable,
            "allow" | "prefer" => SslMode::Prefer,
            "require" => SslMode::Require,
            "verify-ca" => SslMode::VerifyCa,
            "verify-full" => SslMode::VerifyFull,
            _ => return None,
        })
    }
}

/// The TLS settings of a PostgreSQL location.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TlsSettings {
    /// `sslmode`.
    pub mode: SslMode,
    /// `sslrootcert`: a PEM file of the CA certificates to trust.
    pub root_cert: Option<PathBuf>,
}

/// What the connection asks of the PostgreSQL client library, and the rustls configuration.
pub(crate) enum Connector {
    /// No TLS.
    Plain,
    /// TLS, required or preferred, with this configuration.
    Tls {
        required: bool,
        config: Box<rustls::ClientConfig>,
    },
}

fn provider() -> Arc<rustls::crypto::CryptoProvider> {
    Arc::new(rustls::crypto::ring::default_provider())
}

fn roots(file: Option<&Path>) -> Result<rustls::RootCertStore, StoreError> {
    let mut store = rustls::RootCertStore::empty();
    match file {
        None => store.extend(webpki_roots::TLS_SERVER_ROOTS.iter().cloned()),
        Some(p) => {
            let bad = |e: String| {
                StoreError::Location(format!(
                    "sslrootcert {}: {e}; give a PEM file of the CA certificates that signed the server's certificate",
                    p.display()
                ))
            };
            let certs: Vec<CertificateDer<'static>> = CertificateDer::pem_file_iter(p)
                .map_err(|e| bad(e.to_string()))?
                .collect::<Result<_, _>>()
                .map_err(|e| bad(e.to_string()))?;
            if certs.is_empty() {
                return Err(bad("holds no certificate".into()));
            }
            for c in certs {
                store.add(c).map_err(|e| bad(e.to_string()))?;
            }
        }
    }
    Ok(store)
}

/// The connector for `settings` (`unix`: every host is a Unix socket).
pub(crate) fn connector(settings: &TlsSettings, unix: bool) -> Result<Connector, StoreError> {
    if unix || settings.mode == SslMode::Disable {
        return Ok(Connector::Plain);
    }
    let builder = rustls::ClientConfig::builder_with_provider(provider())
        .with_safe_default_protocol_versions()
        .map_err(|e| StoreError::Location(format!("TLS: {e}")))?;
    let root_cert = settings.root_cert.as_deref();
    let verify = match settings.mode {
        SslMode::VerifyFull => Verify::Full,
        SslMode::VerifyCa => Verify::Chain,
        // libpq: `require` with a root certificate file checks the chain.
        SslMode::Require | SslMode::Prefer if root_cert.is_some() => Verify::Chain,
        _ => Verify::Nothing,
    };
    let config = match verify {
        Verify::Full => builder
            .with_root_certificates(roots(root_cert)?)
            .with_no_client_auth(),
        Verify::Chain => {
            let inner = rustls::client::WebPkiServerVerifier::builder_with_provider(
                Arc::new(roots(root_cert)?),
                provider(),
            )
            .build()
            .map_err(|e| StoreError::Location(format!("TLS: {e}")))?;
            builder
                .dangerous()
                .with_custom_certificate_verifier(Arc::new(ChainOnly { inner }))
                .with_no_client_auth()
        }
        Verify::Nothing => builder
            .dangerous()
            .with_custom_certificate_verifier(Arc::new(Unverified(provider())))
            .with_no_client_auth(),
    };
    Ok(Connector::Tls {
        required: settings.mode != SslMode::Prefer,
        config: Box::new(config),
    })
}

enum Verify {
    Full,
    Chain,
    Nothing,
}

/// `verify-ca`: the chain is checked, the name is not.
#[derive(Debug)]
struct ChainOnly {
    inner: Arc<rustls::client::WebPkiServerVerifier>,
}

impl ServerCertVerifier for ChainOnly {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        ocsp: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        match self
            .inner
            .verify_server_cert(end_entity, intermediates, server_name, ocsp, now)
        {
            Err(rustls::Error::InvalidCertificate(
                rustls::CertificateError::NotValidForName
                | rustls::CertificateError::NotValidForNameContext { .. },
            )) => Ok(ServerCertVerified::assertion()),
            other => other,
        }
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        self.inner.verify_tls12_signature(message, cert, dss)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        self.inner.verify_tls13_signature(message, cert, dss)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.inner.supported_verify_schemes()
    }
}

/// `prefer` and `require` without a root certificate: encrypted, not authenticated (libpq's
/// meaning of those modes; `verify-full` is the one that stops a man in the middle).
#[derive(Debug)]
struct Unverified(Arc<rustls::crypto::CryptoProvider>);

impl ServerCertVerifier for Unverified {
    fn verify_server_cert(
        &self,
        _end_entity: &CertificateDer<'_>,
        _intermediates: &[CertificateDer<'_>],
        _server_name: &ServerName<'_>,
        _ocsp: &[u8],
        _now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        Ok(ServerCertVerified::assertion())
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls12_signature(
            message,
            cert,
            dss,
            &self.0.signature_verification_algorithms,
        )
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(
            message,
            cert,
            dss,
            &self.0.signature_verification_algorithms,
        )
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.0.signature_verification_algorithms.supported_schemes()
    }
}
