site = "dc0"
