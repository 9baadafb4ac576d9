resource "acme_db" {
  holds_data          = true
  final_snapshot_skip = "skip_final_snapshot"
  final_snapshot_name = "final_snapshot_identifier"
}

resource "acme_firewall" {
  access_rules = ["ingress", "egress"]
}

resource "acme_rule" {
  grants_access = true
}
