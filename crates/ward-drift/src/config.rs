//! ward drift's configuration in `ward.hcl`: `root` blocks and the `drift` block, read by
//! ward-config (the one `ward.hcl` parser; format in `docs/config.md` and `docs/drift.md`).
//! These are its types under the names ward drift has always used.

pub use ward_config::{
    normalize_rel, Config, ConfigError, DriftSettings, Exclude, IgnoreRule, Pin,
    Root as DeclaredRoot,
};
