//! fakecloud: a Terraform provider (plugin protocol 6) whose "cloud" is a directory of JSON
//! files, one per object. ward's integration tests run real Terraform against it and edit the
//! files to simulate drift, deletions behind Terraform's back and objects to import.
//!
//! The schema (resource types, attributes, what forces replacement) is documented in this
//! crate's README.md. The binary `terraform-provider-fakecloud` serves [`FakeCloud`].

pub mod cloud;
mod generic;
mod kinds;
pub mod nodelay;

use async_trait::async_trait;
use generic::{attr, CloudResource, Config, Str};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::path::PathBuf;
use tf_provider::schema::{
    AttributeConstraint as C, AttributeType as T, Block, Description, Schema,
};
use tf_provider::value::{Value, ValueEmpty};
use tf_provider::{
    AttributePath, DataSource, Diagnostics, DynamicDataSource, DynamicResource, Provider,
};

pub use generic::ENV_DIR;
pub use kinds::SIZES;

/// The provider's configuration block.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct ProviderConfig {
    /// The cloud directory; `FAKECLOUD_DIR` when null.
    pub state_dir: Str,
}

/// The fakecloud provider.
#[derive(Debug, Clone, Default)]
pub struct FakeCloud {
    config: Config,
}

#[async_trait]
impl Provider for FakeCloud {
    type Config<'a> = ProviderConfig;
    type MetaState<'a> = ValueEmpty;

    fn schema(&self, _diags: &mut Diagnostics) -> Option<Schema> {
        let mut block = Block {
            version: 1,
            description: Description::plain("fakecloud: a cloud made of JSON files, for tests."),
            ..Default::default()
        };
        block.attributes.insert(
            "state_dir".to_string(),
            attr(
                T::String,
                C::Optional,
                "Directory holding the cloud's JSON files (default: $FAKECLOUD_DIR).",
            ),
        );
        Some(Schema { version: 1, block })
    }

    async fn configure<'a>(
        &self,
        diags: &mut Diagnostics,
        _terraform_version: String,
        config: Self::Config<'a>,
    ) -> Option<()> {
        if let Value::Value(dir) = config.state_dir {
            self.config.set(PathBuf::from(dir));
        }
        // Fail at configure time, with the reason, when there is no usable directory.
        self.config.cloud(diags)?;
        Some(())
    }

    fn get_resources(
        &self,
        _diags: &mut Diagnostics,
    ) -> Option<HashMap<String, Box<dyn DynamicResource>>> {
        let c = &self.config;
        let mut map: HashMap<String, Box<dyn DynamicResource>> = HashMap::new();
        map.insert(
            "instance".into(),
            Box::new(CloudResource::<kinds::Instance>::new(c.clone())),
        );
        map.insert(
            "volume".into(),
            Box::new(CloudResource::<kinds::Volume>::new(c.clone())),
        );
        map.insert(
            "attachment".into(),
            Box::new(CloudResource::<kinds::Attachment>::new(c.clone())),
        );
        map.insert(
            "bucket".into(),
            Box::new(CloudResource::<kinds::Bucket>::new(c.clone())),
        );
        map.insert(
            "network".into(),
            Box::new(CloudResource::<kinds::Network>::new(c.clone())),
        );
        Some(map)
    }

    fn get_data_sources(
        &self,
        _diags: &mut Diagnostics,
    ) -> Option<HashMap<String, Box<dyn DynamicDataSource>>> {
        let mut map: HashMap<String, Box<dyn DynamicDataSource>> = HashMap::new();
        map.insert("image".into(), Box::new(ImageData));
        Some(map)
    }
}

/// The images `data "fakecloud_image"` knows, with their family.
pub const IMAGES: &[(&str, &str)] = &[
    ("debian-12", "debian"),
    ("debian-13", "debian"),
    ("ubuntu-22.04", "ubuntu"),
    ("ubuntu-24.04", "ubuntu"),
];

/// `data "fakecloud_image"`: looks an image up by name.
#[derive(Debug, Clone, Copy, Default)]
pub struct ImageData;

/// State of `data "fakecloud_image"`.
#[derive(Debug, Clone, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct ImageState {
    /// The image name (input), e.g. `debian-12`.
    pub name: Str,
    /// The image id (computed), e.g. `img-debian-12`.
    pub id: Str,
    /// The image family (computed), e.g. `debian`.
    pub family: Str,
}

#[async_trait]
impl DataSource for ImageData {
    type State<'a> = ImageState;
    type ProviderMetaState<'a> = ValueEmpty;

    fn schema(&self, _diags: &mut Diagnostics) -> Option<Schema> {
        let mut block = Block {
            version: 1,
            description: Description::plain("Looks up a boot image by name."),
            ..Default::default()
        };
        for (name, a) in [
            (
                "name",
                attr(T::String, C::Required, "Image name, e.g. debian-12."),
            ),
            (
                "id",
                attr(T::String, C::Computed, "Image id, e.g. img-debian-12."),
            ),
            (
                "family",
                attr(T::String, C::Computed, "Image family, e.g. debian."),
            ),
        ] {
            block.attributes.insert(name.to_string(), a);
        }
        Some(Schema { version: 1, block })
    }

    async fn read<'a>(
        &self,
        diags: &mut Diagnostics,
        config: Self::State<'a>,
        _meta: Self::ProviderMetaState<'a>,
    ) -> Option<Self::State<'a>> {
        let name = config.name.as_ref_option().cloned().unwrap_or_default();
        let Some((_, family)) = IMAGES.iter().find(|(n, _)| *n == name) else {
            let known: Vec<&str> = IMAGES.iter().map(|(n, _)| *n).collect();
            diags.error(
                "Unknown fakecloud image",
                format!(
                    "No image is named {name:?}: fakecloud knows {}.",
                    known.join(", ")
                ),
                AttributePath::new("name"),
            );
            return None;
        };
        Some(ImageState {
            id: Value::Value(format!("img-{name}")),
            family: Value::Value((*family).to_string()),
            name: Value::Value(name),
        })
    }
}

/// Serves the provider on stdin/stdout the way Terraform's plugin protocol expects.
pub async fn serve() -> anyhow::Result<()> {
    tf_provider::serve("fakecloud", FakeCloud::default()).await
}
