# ward built-in pack: hashicorp/time.

# Schema: checked by crates/ward-rules/tests/selfcheck.rs against schemas/time.json (from the CDK
# for Terraform package @cdktf/provider-time 11.0.1, generated from `providers schema -json` of time
# 0.13.1; see scripts/extract-schemas).

pack {
  name     = "time"
  version  = "2026.11.1"
  provider = "hashicorp/time"
  schema   = "checked"
  summary  = "Timestamps, offsets, rotations and sleeps kept in state."
}

resource "time_static" {
  summary    = "A timestamp fixed at creation."
  source     = "https://registry.terraform.io/providers/hashicorp/time/latest/docs/resources/static"
  rationale  = "Replacement records a new timestamp; the resources that use it change with it."
  holds_data = false
  identity   = ["id", "rfc3339", "unix"]
  on_delete  = "free"
}

resource "time_offset" {
  summary    = "A timestamp offset from a base time."
  source     = "https://registry.terraform.io/providers/hashicorp/time/latest/docs/resources/offset"
  rationale  = "Offset changes recompute the value in place; replacement takes a new base time. Resources that use it show their own changes."
  holds_data = false
  identity   = ["id", "rfc3339", "unix"]
  on_update  = "free"
  on_delete  = "free"
}

resource "time_rotating" {
  summary    = "A timestamp that rotates after a period."
  source     = "https://registry.terraform.io/providers/hashicorp/time/latest/docs/resources/rotating"
  rationale  = "A rotation is planned as a replacement with a new timestamp: that is its purpose, and whatever keys on it (credentials, keepers) rotates with it. Changing the rotation period updates in place."
  holds_data = false
  identity   = ["id", "rfc3339", "unix"]
  on_update  = "free"
  on_delete  = "free"
}

resource "time_sleep" {
  summary    = "Waits a duration on create or destroy."
  source     = "https://registry.terraform.io/providers/hashicorp/time/latest/docs/resources/sleep"
  rationale  = "Only delays the apply; nothing running is touched."
  holds_data = false
  identity   = ["id"]
  on_create  = "free"
  on_update  = "free"
  on_delete  = "free"
  on_replace = "free"
}
