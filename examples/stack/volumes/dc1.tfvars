site = "dc1"
