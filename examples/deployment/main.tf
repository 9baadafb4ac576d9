# A small but realistic deployment on fakecloud: one network, two web instances, a database
# instance with a data volume, and a backup bucket. ward's example plans (examples/plans) are
# this configuration put through each hazard scenario (see ../README.md).

terraform {
  required_providers {
    fakecloud = {
      source = "ward/fakecloud"
    }
  }
}

# The cloud directory comes from FAKECLOUD_DIR (ward-rig sets it per root).
provider "fakecloud" {}

data "fakecloud_image" "web" {
  name = "debian-12"
}

data "fakecloud_image" "db" {
  name = "ubuntu-24.04"
}

resource "fakecloud_network" "main" {
  name = "main"
  cidr = "10.20.0.0/16"
  tags = {
    env = "prod"
  }
}

resource "fakecloud_instance" "web" {
  count = 2

  name       = "web-${count.index}"
  size       = "small"
  image      = data.fakecloud_image.web.id
  network_id = fakecloud_network.main.id
  tags = {
    env  = "prod"
    role = "web"
  }
}

resource "fakecloud_instance" "db" {
  name           = "db"
  size           = "medium"
  image          = data.fakecloud_image.db.id
  network_id     = fakecloud_network.main.id
  admin_password = var.db_admin_password
  tags = {
    env  = "prod"
    role = "db"
  }
}
