# ward built-in pack: lxc/incus.
#
# Schema: unavailable. No package generated from this provider's `providers schema -json` is
# published in the registries this project can reach; the names below were written from the
# provider's documentation pages cited in each `source`.
#
# How types were decided: curated one by one, each from the provider documentation page its
# `source` cites, with a rationale saying why it costs what it does.

pack {
  name     = "incus"
  version  = "2026.12.0"
  provider = "lxc/incus"
  schema   = "unavailable: no prebuilt package generated from the incus provider schema is published in the npm or PyPI registries; written from the provider documentation"
}

resource "incus_instance" {
  summary    = "An Incus container or virtual machine."
  source     = "https://registry.terraform.io/providers/lxc/incus/latest/docs/resources/instance"
  rationale  = "Most config keys and devices apply live; an image change replaces the instance, and replacement or deletion removes its root disk."
  holds_data = true
  identity   = ["ipv4_address", "ipv6_address", "mac_address"]
  free       = ["description"]

  attribute "config" {
    impact = "in-place"
    why    = "Incus applies most instance options live; keys that only take effect at boot (for example many VM options) wait for the next restart, which the provider does not do."
  }
  attribute "device" {
    impact = "in-place"
    why    = "Devices are hot-plugged or removed live; removing a disk or NIC device detaches it from the running instance."
  }
  attribute "profiles" {
    impact = "in-place"
    why    = "Profile changes apply their config and devices live, as for config and device changes."
  }
  attribute "running" {
    impact = "interrupt"
    why    = "Changing running starts or stops the instance."
  }
}

resource "incus_profile" {
  summary    = "An Incus profile."
  source     = "https://registry.terraform.io/providers/lxc/incus/latest/docs/resources/profile"
  rationale  = "Config and device changes apply live to every instance using the profile."
  holds_data = false
  identity   = ["name"]
  free       = ["description"]
}

resource "incus_network" {
  summary    = "An Incus network."
  source     = "https://registry.terraform.io/providers/lxc/incus/latest/docs/resources/network"
  rationale  = "Config changes apply in place (some restart the network's DHCP/DNS service); replacement removes the bridge and cuts off every instance on it."
  holds_data = false
  identity   = ["name"]
  free       = ["description"]
}

resource "incus_storage_pool" {
  summary    = "An Incus storage pool."
  source     = "https://registry.terraform.io/providers/lxc/incus/latest/docs/resources/storage_pool"
  rationale  = "The pool holds instance disks and volumes: deleting or replacing it loses them."
  holds_data = true
  identity   = ["name"]
  free       = ["description"]
}

resource "incus_storage_volume" {
  summary    = "An Incus custom storage volume."
  source     = "https://registry.terraform.io/providers/lxc/incus/latest/docs/resources/storage_volume"
  rationale  = "The volume holds data: replacement or deletion loses it; config changes (such as size) apply in place."
  holds_data = true
  identity   = ["name"]
  free       = ["description"]
}

resource "incus_project" {
  summary    = "An Incus project."
  source     = "https://registry.terraform.io/providers/lxc/incus/latest/docs/resources/project"
  rationale  = "Feature and limit changes apply in place; a project can only be deleted once empty."
  holds_data = false
  identity   = ["name"]
  free       = ["description"]
}
