# L0, substrate: one network per site. Its outputs are all the layer above reads.

terraform {
  required_providers {
    fakecloud = {
      source = "ward/fakecloud"
    }
  }
  # The path comes per site from ward.hcl (`backend_config`), outside the repository.
  backend "local" {}
}

# The cloud directory comes from FAKECLOUD_DIR.
provider "fakecloud" {}

variable "site" {
  type = string
}

variable "cidr" {
  type = string
}

resource "fakecloud_network" "main" {
  name = "${var.site}-net"
  cidr = var.cidr
  tags = {
    site = var.site
  }
}

output "network_id" {
  value = fakecloud_network.main.id
}

output "cidr" {
  value = fakecloud_network.main.cidr
}
