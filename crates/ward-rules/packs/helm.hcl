# ward built-in pack: hashicorp/helm.
#
# Schema: checked by crates/ward-rules/tests/selfcheck.rs against schemas/helm.json (from the CDK
# for Terraform package @cdktf/provider-helm, generated from `providers schema -json`; see
# scripts/extract-schemas).
#
# How types were decided: curated one by one, each from the provider documentation page its
# `source` cites, with a rationale saying why it costs what it does.

pack {
  name     = "helm"
  version  = "2026.12.0"
  provider = "hashicorp/helm"
  schema   = "checked"
}

resource "helm_release" {
  summary    = "A Helm release (a chart installed into a cluster)."
  source     = "https://registry.terraform.io/providers/hashicorp/helm/latest/docs/resources/release"
  rationale  = "Value, chart and version changes run `helm upgrade` in place, which rolls whatever workloads the chart changes; uninstalling deletes every object the chart created, and ward cannot see inside the chart, so deletion is assumed to lose data."
  holds_data = true
  identity   = ["id", "metadata"]
  free       = ["description", "timeout", "wait", "wait_for_jobs", "atomic", "cleanup_on_fail", "max_history"]

  attribute "values" {
    impact = "in-place"
    why    = "helm upgrade applies the new values; workloads whose pod templates change roll their pods."
  }
  attribute "set" {
    impact = "in-place"
    why    = "helm upgrade applies the new values; workloads whose pod templates change roll their pods."
  }
  attribute "version" {
    impact = "in-place"
    why    = "helm upgrade installs the new chart version; its changes (new images, changed objects) roll out as the chart defines."
  }
  attribute "chart" {
    impact = "in-place"
    why    = "helm upgrade switches the release to the new chart; its objects are updated, created or deleted to match."
  }
}
