# ward built-in pack: hashicorp/local.

# Schema: checked by crates/ward-rules/tests/selfcheck.rs against schemas/local.json (from the CDK
# for Terraform package @cdktf/provider-local 11.1.1, generated from `providers schema -json` of
# local 2.6.1; see scripts/extract-schemas).

pack {
  name     = "local"
  version  = "2026.11.1"
  provider = "hashicorp/local"
  schema   = "checked"
  summary  = "Files on the machine that runs Terraform."
}

resource "local_file" {
  summary    = "A file on the machine that runs Terraform."
  source     = "https://registry.terraform.io/providers/hashicorp/local/latest/docs/resources/file"
  rationale  = "Every argument forces replacement: the file is deleted and written again, so a reader may briefly find it missing. Its content comes from configuration, so nothing is lost."
  holds_data = false
  identity   = ["id", "content_md5", "content_sha1", "content_sha256", "content_sha512", "content_base64sha256", "content_base64sha512"]
}

resource "local_sensitive_file" {
  summary    = "A file with sensitive content on the machine that runs Terraform."
  source     = "https://registry.terraform.io/providers/hashicorp/local/latest/docs/resources/sensitive_file"
  rationale  = "Every argument forces replacement: the file is deleted and written again. Its content comes from configuration, so nothing is lost."
  holds_data = false
  identity   = ["id", "content_md5", "content_sha1", "content_sha256", "content_sha512", "content_base64sha256", "content_base64sha512"]
}
