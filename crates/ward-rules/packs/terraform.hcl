# ward built-in pack: terraform.io/builtin/terraform (the provider built into Terraform/OpenTofu).

# Schema: checked by crates/ward-rules/tests/selfcheck.rs against schemas/terraform.json (read from
# `terraform providers schema -json` of Terraform 1.11.4; see scripts/extract-schemas).

pack {
  name     = "terraform"
  version  = "2026.11.1"
  provider = "terraform.io/builtin/terraform"
  schema   = "checked"
  summary  = "terraform_data: values and provisioners tied to the lifecycle of the configuration."
}

resource "terraform_data" {
  summary    = "Stores a value and runs provisioners; no remote object."
  source     = "https://developer.hashicorp.com/terraform/language/resources/terraform-data"
  rationale  = "A changed `input` updates `output` in place (the resources that read it show their own changes); a changed `triggers_replace` replaces it, runs its provisioners again and triggers replace_triggered_by."
  holds_data = false
  identity   = ["id"]
  on_create  = "free"
  on_update  = "free"
  on_delete  = "free"
  on_replace = "replace"

  attribute "input" {
    impact = "free"
    why    = "Only the stored value changes; resources that read `output` show their own changes."
  }
  attribute "output" {
    impact = "free"
    why    = "Follows `input`."
  }
  attribute "triggers_replace" {
    impact = "replace"
    why    = "A change to `triggers_replace` replaces the resource and runs its provisioners again."
  }
}
