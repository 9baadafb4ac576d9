root "envs/prod" {
  name = "prod"
}

policy {
  approve = ["data-loss", "destroy"]
  protect = ["aws_db_instance.*", "module.db.*"]
  approvals = ".ward/approvals.json"
}

drift {
  exclude "sandbox/**" {
    reason = "throwaway"
  }
  ignore {
    address   = "aws_instance.*"
    attribute = "tags.LastSeen"
    reason    = "set by a cron job"
    expires   = "2027-01-01"
  }
}

history {
  path = ".ward/history.db"
}

resource "acme_widget" {
  attribute "size" {
    impact = "restart"
  }
}
