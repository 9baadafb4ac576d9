# ward built-in pack: hashicorp/cloudinit.
#
# `data "cloudinit_config"` is a data source (never gated); the managed `cloudinit_config` is below.

# Schema: checked by crates/ward-rules/tests/selfcheck.rs against schemas/cloudinit.json (from the
# CDK for Terraform package @cdktf/provider-cloudinit 11.0.1, generated from `providers schema
# -json` of cloudinit 2.3.7; see scripts/extract-schemas).

pack {
  name     = "cloudinit"
  version  = "2026.11.1"
  provider = "hashicorp/cloudinit"
  schema   = "checked"
  summary  = "cloudinit_config: a rendered multi-part cloud-init document kept in state."
}

resource "cloudinit_config" {
  summary    = "A rendered cloud-init document."
  source     = "https://registry.terraform.io/providers/hashicorp/cloudinit/latest/docs/resources/config"
  rationale  = "Only the rendered text in state changes; the machines that use it (as user_data) show their own changes."
  holds_data = false
  identity   = ["id"]
  on_create  = "free"
  on_update  = "free"
  on_delete  = "free"
  on_replace = "free"
}
