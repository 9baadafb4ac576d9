# ward built-in pack: hashicorp/null.
#
# null_resource has no remote object. What it costs is what its provisioners do, which a plan
# cannot show; the entry below states the cost of the object itself.

# Schema: checked by crates/ward-rules/tests/selfcheck.rs against schemas/null.json (from the CDK
# for Terraform package @cdktf/provider-null 11.0.1, generated from `providers schema -json` of null
# 3.2.4; see scripts/extract-schemas).

pack {
  name     = "null"
  version  = "2026.11.1"
  provider = "hashicorp/null"
  schema   = "checked"
  summary  = "null_resource: a placeholder that runs provisioners."
}

resource "null_resource" {
  summary    = "A placeholder with no remote object; runs its provisioners when created."
  source     = "https://registry.terraform.io/providers/hashicorp/null/latest/docs/resources/resource"
  rationale  = "Every change to `triggers` replaces it: its create-time provisioners run again and its id changes, so anything using replace_triggered_by on it is replaced too. Destroying it touches nothing but its destroy-time provisioners."
  holds_data = false
  identity   = ["id"]
  on_create  = "free"
  on_delete  = "free"
  on_replace = "replace"

  attribute "triggers" {
    impact = "replace"
    why    = "A change to `triggers` replaces the resource and runs its provisioners again."
  }
}
