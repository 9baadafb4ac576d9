# ward built-in pack: bpg/proxmox (provider 0.x).
#
# Covers the bpg/proxmox provider (proxmox_virtual_environment_*). The Telmate/proxmox provider
# (proxmox_vm_qemu, proxmox_lxc) is not covered.
#
# Schema: unavailable. No package generated from this provider's `providers schema -json` is
# published in the registries this project can reach; the names below were written from the
# provider's documentation pages cited in each `source`.
#
# How types were decided: curated one by one, each from the provider documentation page its
# `source` cites, with a rationale saying why it costs what it does.

pack {
  name     = "proxmox"
  version  = "2026.12.2"
  provider = "bpg/proxmox"
  schema   = "unavailable: no prebuilt package generated from the bpg/proxmox provider schema is published in the npm or PyPI registries; written from the provider documentation"
}

resource "proxmox_virtual_environment_vm" {
  summary    = "A Proxmox VE QEMU virtual machine."
  source     = "https://registry.terraform.io/providers/bpg/proxmox/latest/docs/resources/virtual_environment_vm"
  rationale  = "CPU, memory and most hardware changes need a reboot, which the provider performs when reboot_after_update is true (the default); disks grow online; replacement or deletion destroys the VM's disks."
  holds_data = true
  identity   = ["id", "vm_id", "mac_addresses", "ipv4_addresses", "ipv6_addresses", "network_device.mac_address"]
  free       = ["tags", "description", "name", "reboot_after_update"]

  attribute "cpu" {
    impact = "interrupt"
    why    = "CPU changes take effect after a reboot, which the provider does when reboot_after_update is true."
  }
  attribute "memory" {
    impact = "interrupt"
    why    = "Memory changes take effect after a reboot, which the provider does when reboot_after_update is true."
  }
  attribute "disk.size" {
    decrease  = "replace"
    increase  = "in-place"
    why       = "The disk grows live when disk hotplug is enabled (the Proxmox default); otherwise the provider reboots the VM (reboot_after_update). The guest must still grow its file system. Proxmox cannot shrink a disk: a smaller size is refused, and going down means a new, empty disk."
  }
  attribute "started" {
    impact = "interrupt"
    why    = "Changing started starts or shuts down the VM."
  }
}

resource "proxmox_virtual_environment_container" {
  summary    = "A Proxmox VE LXC container."
  source     = "https://registry.terraform.io/providers/bpg/proxmox/latest/docs/resources/virtual_environment_container"
  rationale  = "CPU and memory limits apply live; replacement or deletion destroys the container's root disk."
  holds_data = true
  identity   = ["id", "vm_id", "network_interface.mac_address"]
  free       = ["tags", "description"]

  attribute "started" {
    impact = "interrupt"
    why    = "Changing started starts or shuts down the container."
  }
}

resource "proxmox_virtual_environment_download_file" {
  summary    = "An ISO or image downloaded to a Proxmox datastore."
  source     = "https://registry.terraform.io/providers/bpg/proxmox/latest/docs/resources/virtual_environment_download_file"
  rationale  = "Replacement downloads the file again; VMs already cloned from it keep their own disks."
  holds_data = false
  identity   = ["id"]
}

resource "proxmox_virtual_environment_file" {
  summary    = "A file (snippet, ISO, template) uploaded to a Proxmox datastore."
  source     = "https://registry.terraform.io/providers/bpg/proxmox/latest/docs/resources/virtual_environment_file"
  rationale  = "Any change re-uploads the file; cloud-init snippets are read by VMs only at their next boot."
  holds_data = false
  identity   = ["id"]
}

resource "proxmox_virtual_environment_network_linux_bridge" {
  summary    = "A Linux bridge on a Proxmox node."
  source     = "https://registry.terraform.io/providers/bpg/proxmox/latest/docs/resources/virtual_environment_network_linux_bridge"
  rationale  = "Changes are applied by reloading the node's network configuration; VMs on the bridge can lose connectivity briefly, and deleting it cuts them off."
  holds_data = false
  identity   = ["id"]
  free       = ["comment"]
}

resource "proxmox_virtual_environment_pool" {
  summary    = "A Proxmox VE resource pool."
  source     = "https://registry.terraform.io/providers/bpg/proxmox/latest/docs/resources/virtual_environment_pool"
  rationale  = "A grouping for permissions: changes touch no running guest."
  holds_data = false
  identity   = ["id"]
  free       = ["comment"]
}

# ---------------------------------------------------------------- authoritative and adopting types

resource "proxmox_virtual_environment_dns" {
  summary    = "The DNS settings of an existing node (search domain and servers)."
  source     = "https://registry.terraform.io/providers/bpg/proxmox/latest/docs/resources/virtual_environment_dns"
  rationale  = "Sets the resolver configuration of a node that exists without it: the node and everything on it that resolves through it use the new servers at once; a wrong server breaks name resolution on the node."
  holds_data = false
  identity   = ["id"]
  on_update  = "interrupt"

  overwrites {
    impact = "interrupt"
    what   = "replaces the DNS settings of an existing node"
    why    = "the servers and search domain it had are overwritten: name resolution on the node uses the new ones at once"
    target = ["node_name"]
  }
}

resource "proxmox_virtual_environment_hosts" {
  summary    = "The hosts file entries of an existing node."
  source     = "https://registry.terraform.io/providers/bpg/proxmox/latest/docs/resources/virtual_environment_hosts"
  rationale  = "Sets the /etc/hosts entries of a node that exists without it (the cluster's own names among them): a missing entry for a cluster node can break corosync and the web interface."
  holds_data = false
  identity   = ["id"]
  on_update  = "interrupt"

  overwrites {
    impact = "interrupt"
    what   = "replaces the hosts file entries of an existing node"
    why    = "entries not listed here (the cluster's own names among them) are removed: names they resolved stop resolving on the node"
    target = ["node_name"]
  }
}

resource "proxmox_virtual_environment_time" {
  summary    = "The time zone of an existing node."
  source     = "https://registry.terraform.io/providers/bpg/proxmox/latest/docs/resources/virtual_environment_time"
  rationale  = "Sets the time zone of a node that exists without it; nothing stops, but schedules and logs read local time from then on."
  holds_data = false
  identity   = ["id"]

  overwrites {
    impact = "in-place"
    what   = "replaces the time zone of an existing node"
    why    = "schedules and logs on the node use the new local time from then on"
    target = ["node_name", "time_zone"]
  }
}

resource "proxmox_virtual_environment_cluster_options" {
  summary    = "The datacenter-wide options of an existing cluster."
  source     = "https://registry.terraform.io/providers/bpg/proxmox/latest/docs/resources/virtual_environment_cluster_options"
  rationale  = "Sets the options of the cluster that exists without it (migration network, HA shutdown policy, console, language, bandwidth limits): they apply to every node at once."
  holds_data = false
  identity   = ["id"]

  overwrites {
    impact = "in-place"
    what   = "replaces the datacenter-wide options of the existing cluster"
    why    = "options not written here return to their defaults, on every node at once"
  }
}
