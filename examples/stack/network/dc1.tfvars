site = "dc1"
cidr = "10.11.0.0/16"
