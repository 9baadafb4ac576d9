# L2, resources: a data volume per site, attached to L1's instance.

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

# The outputs of root "instances" at this site.
variable "instances" {
  type = object({
    instance_id = string
  })
}

resource "fakecloud_volume" "data" {
  name    = "${var.site}-data"
  size_gb = 10
}

resource "fakecloud_attachment" "data" {
  instance_id = var.instances.instance_id
  volume_id   = fakecloud_volume.data.id
}

output "volume_id" {
  value = fakecloud_volume.data.id
}
