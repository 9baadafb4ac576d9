# ward built-in pack: hashicorp/tls.
#
# Keys and certificates generated here exist only in Terraform state.

# Schema: checked by crates/ward-rules/tests/selfcheck.rs against schemas/tls.json (from the CDK for
# Terraform package @cdktf/provider-tls 11.0.1, generated from `providers schema -json` of tls
# 4.1.0; see scripts/extract-schemas).

pack {
  name     = "tls"
  version  = "2026.11.1"
  provider = "hashicorp/tls"
  schema   = "checked"
  summary  = "Private keys, certificate requests and certificates generated in state."
}

resource "tls_private_key" {
  summary    = "A private key, generated and kept only in Terraform state."
  source     = "https://registry.terraform.io/providers/hashicorp/tls/latest/docs/resources/private_key"
  rationale  = "The key exists nowhere but in state: destroying or replacing it loses it for good, and everything that trusts its public key (certificates it signed, SSH authorized_keys) must be re-keyed."
  holds_data = true
  identity   = ["id", "public_key_pem", "public_key_openssh", "public_key_fingerprint_md5", "public_key_fingerprint_sha256"]
}

resource "tls_cert_request" {
  summary    = "A certificate signing request."
  source     = "https://registry.terraform.io/providers/hashicorp/tls/latest/docs/resources/cert_request"
  rationale  = "Every argument forces a new request; the certificate signed from it follows in its own plan entry."
  holds_data = false
  identity   = ["id", "cert_request_pem"]
}

resource "tls_self_signed_cert" {
  summary    = "A self-signed certificate."
  source     = "https://registry.terraform.io/providers/hashicorp/tls/latest/docs/resources/self_signed_cert"
  rationale  = "A new certificate (new serial) on replacement: whoever pinned or trusted the old one must take the new one. early_renewal_hours changes in place and only moves the renewal point."
  holds_data = false
  identity   = ["id", "cert_pem"]
  free       = ["early_renewal_hours", "ready_for_renewal"]
}

resource "tls_locally_signed_cert" {
  summary    = "A certificate signed by a CA key given to Terraform."
  source     = "https://registry.terraform.io/providers/hashicorp/tls/latest/docs/resources/locally_signed_cert"
  rationale  = "A new certificate (new serial) on replacement; services presenting it must be given the new one. early_renewal_hours changes in place and only moves the renewal point."
  holds_data = false
  identity   = ["id", "cert_pem"]
  free       = ["early_renewal_hours", "ready_for_renewal"]
}
