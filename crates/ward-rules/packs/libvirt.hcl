# ward built-in pack: dmacvicar/libvirt (provider 0.8.x, the SDK-based provider).
#
# The 0.9 rewrite of this provider has a different schema and is not covered yet.
#
# Schema: unavailable. No package generated from this provider's `providers schema -json` is
# published in the registries this project can reach; the names below were written from the
# provider's documentation and resource schema code (read, not copied) at the pages cited in
# each `source`.
#
# How types were decided: curated one by one, each from the provider documentation page its
# `source` cites, with a rationale saying why it costs what it does.

pack {
  name     = "libvirt"
  version  = "2026.12.0"
  provider = "dmacvicar/libvirt"
  schema   = "unavailable: no prebuilt package generated from the libvirt provider schema is published in the npm or PyPI registries; written from the provider documentation (0.8.x)"
}

resource "libvirt_domain" {
  summary    = "A libvirt virtual machine (domain)."
  source     = "https://registry.terraform.io/providers/dmacvicar/libvirt/0.8.3/docs/resources/domain"
  rationale  = "Memory, vCPU, disk, firmware and description changes are marked ForceNew by the provider: the domain is destroyed and defined again, with a new UUID and a new random MAC address on every interface that does not set `mac` (so DHCP leases and IPs change). Its disks are separate libvirt_volume resources."
  holds_data = false
  identity   = ["id", "network_interface.mac", "network_interface.addresses"]

  attribute "memory" {
    impact = "replace"
    why    = "The provider replaces the domain for a memory change: it is shut down and redefined with a new UUID and, unless network_interface.mac is set, a new MAC address."
  }
  attribute "vcpu" {
    impact = "replace"
    why    = "The provider replaces the domain for a vCPU change: it is shut down and redefined with a new UUID and, unless network_interface.mac is set, a new MAC address."
  }
  attribute "running" {
    impact = "interrupt"
    why    = "Changing running starts or shuts down the domain."
  }
  attribute "autostart" {
    impact = "in-place"
    why    = "Only whether the domain starts with the host; the running domain is untouched."
  }
  attribute "network_interface" {
    impact = "in-place"
    why    = "Network address and hostname changes update the network's DHCP host entries in place."
  }
}

resource "libvirt_volume" {
  summary    = "A libvirt storage volume (a VM disk)."
  source     = "https://registry.terraform.io/providers/dmacvicar/libvirt/0.8.3/docs/resources/volume"
  rationale  = "The volume holds data: replacement (e.g. a new base image or size) or deletion loses it."
  holds_data = true
  identity   = ["id"]
}

resource "libvirt_pool" {
  summary    = "A libvirt storage pool."
  source     = "https://registry.terraform.io/providers/dmacvicar/libvirt/0.8.3/docs/resources/pool"
  rationale  = "The pool holds its volumes: deleting or replacing it removes the pool and its storage."
  holds_data = true
  identity   = ["id"]
}

resource "libvirt_network" {
  summary    = "A libvirt virtual network."
  source     = "https://registry.terraform.io/providers/dmacvicar/libvirt/0.8.3/docs/resources/network"
  rationale  = "DNS host entries and DHCP settings update in place; replacement tears down the bridge, cutting every attached domain off the network."
  holds_data = false
  identity   = ["id", "bridge"]
  free       = ["autostart"]
}

resource "libvirt_cloudinit_disk" {
  summary    = "A cloud-init seed ISO stored as a libvirt volume."
  source     = "https://registry.terraform.io/providers/dmacvicar/libvirt/0.8.3/docs/resources/cloudinit"
  rationale  = "Any change replaces the ISO; domains read cloud-init data at first boot only, and a domain that references the disk sees the change when it is updated or recreated."
  holds_data = false
  identity   = ["id"]
}

resource "libvirt_ignition" {
  summary    = "An Ignition config stored as a libvirt volume."
  source     = "https://registry.terraform.io/providers/dmacvicar/libvirt/0.8.3/docs/resources/coreos_ignition"
  rationale  = "Any change replaces the config volume; it is read at first boot only, and domains that reference it are replaced (coreos_ignition is ForceNew)."
  holds_data = false
  identity   = ["id"]
}
