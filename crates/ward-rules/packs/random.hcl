# ward built-in pack: hashicorp/random.
#
# Random values live only in state. Replacing one generates a new value: whatever uses it (a
# password, a name, a suffix in other resources' names) changes, which is why replacement costs
# `replace`. Destroying one touches nothing running.

# Schema: checked by crates/ward-rules/tests/selfcheck.rs against schemas/random.json (from the CDK
# for Terraform package @cdktf/provider-random 12.0.1, generated from `providers schema -json` of
# random 3.7.2; see scripts/extract-schemas).

pack {
  name     = "random"
  version  = "2026.11.1"
  provider = "hashicorp/random"
  schema   = "checked"
  summary  = "Random ids, integers, passwords, strings, pets, shuffles, uuids and bytes."
}

resource "random_id" {
  summary    = "Random bytes, exposed as hex, decimal and base64."
  source     = "https://registry.terraform.io/providers/hashicorp/random/latest/docs/resources/id"
  rationale  = "Every argument forces a new value; the resources that use it change with it."
  holds_data = false
  identity   = ["id", "hex", "dec", "b64_url", "b64_std"]
  on_update  = "free"
  on_delete  = "free"
}

resource "random_integer" {
  summary    = "A random integer in a range."
  source     = "https://registry.terraform.io/providers/hashicorp/random/latest/docs/resources/integer"
  rationale  = "Every argument forces a new value; the resources that use it change with it."
  holds_data = false
  identity   = ["id", "result"]
  on_update  = "free"
  on_delete  = "free"
}

resource "random_password" {
  summary    = "A random password (sensitive)."
  source     = "https://registry.terraform.io/providers/hashicorp/random/latest/docs/resources/password"
  rationale  = "A new password is generated on replacement: every system given the old one must be updated. In-place updates only rewrite state (e.g. number → numeric)."
  holds_data = false
  identity   = ["id", "result", "bcrypt_hash"]
  on_update  = "free"
  on_delete  = "free"
}

resource "random_string" {
  summary    = "A random string."
  source     = "https://registry.terraform.io/providers/hashicorp/random/latest/docs/resources/string"
  rationale  = "A new string is generated on replacement; the resources that use it change with it. In-place updates only rewrite state."
  holds_data = false
  identity   = ["id", "result"]
  on_update  = "free"
  on_delete  = "free"
}

resource "random_pet" {
  summary    = "A random pet name."
  source     = "https://registry.terraform.io/providers/hashicorp/random/latest/docs/resources/pet"
  rationale  = "A new name is generated on replacement; resources named after it are renamed or replaced with it."
  holds_data = false
  identity   = ["id"]
  on_update  = "free"
  on_delete  = "free"
}

resource "random_shuffle" {
  summary    = "A random permutation of a list."
  source     = "https://registry.terraform.io/providers/hashicorp/random/latest/docs/resources/shuffle"
  rationale  = "A new permutation is generated on replacement; the resources that use it change with it."
  holds_data = false
  identity   = ["id", "result"]
  on_update  = "free"
  on_delete  = "free"
}

resource "random_uuid" {
  summary    = "A random UUID."
  source     = "https://registry.terraform.io/providers/hashicorp/random/latest/docs/resources/uuid"
  rationale  = "A new UUID is generated on replacement; the resources that use it change with it."
  holds_data = false
  identity   = ["id", "result"]
  on_update  = "free"
  on_delete  = "free"
}

resource "random_bytes" {
  summary    = "Random bytes (sensitive), as base64 and hex."
  source     = "https://registry.terraform.io/providers/hashicorp/random/latest/docs/resources/bytes"
  rationale  = "New bytes are generated on replacement (often key material): whatever was given the old bytes must be updated."
  holds_data = false
  identity   = ["base64", "hex"]
  on_update  = "free"
  on_delete  = "free"
}
