layer "base" {
  level = 0
}

root "prod" {
  path         = "envs/prod"
  layer        = "base"
  expect_empty = false
}

policy {
  approve = ["data-loss", "replace"]
  protect = ["aws_db_instance.*", "module.db.*"]
}

drift {
  exclude "sandbox/**" {
    reason = "throwaway"
  }
  ignore {
    address   = "aws_instance.*"
    attribute = "tags.LastSeen"
    owner     = "ops"
    expires   = "2027-01-01"
  }
}

history {
  url = ".ward/history.sqlite"
}
