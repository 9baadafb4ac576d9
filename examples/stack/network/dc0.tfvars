site = "dc0"
cidr = "10.10.0.0/16"
