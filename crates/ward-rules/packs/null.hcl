# ward built-in pack: hashicorp/null.
#
# null_resource has no remote object. What it costs is what its provisioners do, which a plan
# cannot show; the entry below states the cost of the object itself.

pack {
  name     = "null"
  version  = "2026.11.0"
  provider = "hashicorp/null"
  schema   = "unavailable: no reference schema file in crates/ward-rules/schemas; every type and attribute name was checked by hand against @cdktf/provider-null 11.0.1 (generated from null 3.2.4)"
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
