# L1, nodes: the site's instance, on the network L0 made. `var.network` is L0's outputs, passed
# by ward stack (see docs/stack.md); nothing here reads L0's state.

terraform {
  required_providers {
    fakecloud = {
      source = "ward/fakecloud"
    }
  }
  backend "local" {}
}

provider "fakecloud" {}

variable "site" {
  type = string
}

# The outputs of root "network" at this site.
variable "network" {
  type = object({
    network_id = string
    cidr       = string
  })
}

data "fakecloud_image" "base" {
  name = "debian-12"
}

resource "fakecloud_instance" "app" {
  name       = "${var.site}-app"
  size       = "small"
  image      = data.fakecloud_image.base.id
  network_id = var.network.network_id
  tags = {
    site = var.site
    cidr = var.network.cidr
  }
}

output "instance_id" {
  value = fakecloud_instance.app.id
}
