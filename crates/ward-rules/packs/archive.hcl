# ward built-in pack: hashicorp/archive.
#
# `data "archive_file"` is a data source (never gated); the managed `archive_file` is below.

# Schema: checked by crates/ward-rules/tests/selfcheck.rs against schemas/archive.json (from the CDK
# for Terraform package @cdktf/provider-archive 11.0.1, generated from `providers schema -json` of
# archive 2.7.1; see scripts/extract-schemas).

pack {
  name     = "archive"
  version  = "2026.11.1"
  provider = "hashicorp/archive"
  schema   = "checked"
  summary  = "archive_file: a zip or tar.gz written on the machine that runs Terraform."
}

resource "archive_file" {
  summary    = "An archive written to output_path on the machine that runs Terraform."
  source     = "https://registry.terraform.io/providers/hashicorp/archive/latest/docs/resources/file"
  rationale  = "Every argument forces replacement: the archive is written again from its sources, so nothing is lost; its checksums change."
  holds_data = false
  identity   = ["id", "output_md5", "output_sha", "output_sha256", "output_sha512", "output_base64sha256", "output_base64sha512"]
}
