# ward built-in pack: hetznercloud/hcloud (provider 1.x).
#
# Schema: unavailable. No package generated from this provider's `providers schema -json` is
# published in the registries this project can reach (there is no CDK for Terraform prebuilt
# hcloud package), so the self-check cannot verify the names below; they were written from the
# provider's documentation pages cited in each `source`.
#
# How types were decided: curated one by one, each from the provider documentation page its
# `source` cites, with a rationale saying why it costs what it does.

pack {
  name     = "hcloud"
  version  = "2026.12.2"
  provider = "hetznercloud/hcloud"
  schema   = "unavailable: no prebuilt package generated from the hcloud provider schema is published in the npm or PyPI registries; written from the provider documentation"
}

resource "hcloud_server" {
  summary    = "A Hetzner Cloud server."
  source     = "https://registry.terraform.io/providers/hetznercloud/hcloud/latest/docs/resources/server"
  rationale  = "A server type change powers the server off, rescales it and powers it on; an image or user data change replaces it, and replacement deletes its local disk."
  holds_data = true
  identity   = ["id", "ipv4_address", "ipv6_address", "ipv6_network"]
  free       = ["labels", "delete_protection", "rebuild_protection"]

  attribute "server_type" {
    impact = "interrupt"
    why    = "The provider shuts the server down, changes its type (keeping the disk size when keep_disk is true) and starts it again."
  }
  attribute "backups" {
    impact = "in-place"
    why    = "Backups are enabled or disabled without touching the server."
  }
}

resource "hcloud_volume" {
  summary    = "A Hetzner Cloud block volume."
  source     = "https://registry.terraform.io/providers/hetznercloud/hcloud/latest/docs/resources/volume"
  rationale  = "The volume holds data: replacement or deletion loses it. It can only grow, online."
  holds_data = true
  identity   = ["id", "linux_device"]
  free       = ["labels", "delete_protection"]

  attribute "size" {
    decrease  = "replace"
    increase  = "in-place"
    why       = "The volume grows online (the file system must still be grown inside the server). Hetzner Cloud cannot shrink a volume: a smaller size is refused, and going down means a new, empty volume."
  }
}

resource "hcloud_volume_attachment" {
  summary    = "The attachment of a volume to a server."
  source     = "https://registry.terraform.io/providers/hetznercloud/hcloud/latest/docs/resources/volume_attachment"
  rationale  = "Deleting or replacing it detaches the volume from the running server; the volume and its data remain."
  holds_data = false
  identity   = ["id"]
}

resource "hcloud_primary_ip" {
  summary    = "A Hetzner Cloud primary IP."
  source     = "https://registry.terraform.io/providers/hetznercloud/hcloud/latest/docs/resources/primary_ip"
  rationale  = "Replacement gives a different address, breaking DNS records and allow-lists that name it."
  holds_data = false
  identity   = ["id", "ip_address", "ip_network"]
  free       = ["labels", "auto_delete", "delete_protection"]
}

resource "hcloud_floating_ip" {
  summary    = "A Hetzner Cloud floating IP."
  source     = "https://registry.terraform.io/providers/hetznercloud/hcloud/latest/docs/resources/floating_ip"
  rationale  = "Reassigning it moves traffic to another server; replacement gives a different address."
  holds_data = false
  identity   = ["id", "ip_address", "ip_network"]
  free       = ["labels", "description", "delete_protection"]
}

resource "hcloud_floating_ip_assignment" {
  summary    = "The assignment of a floating IP to a server."
  source     = "https://registry.terraform.io/providers/hetznercloud/hcloud/latest/docs/resources/floating_ip_assignment"
  rationale  = "Deleting or replacing it unassigns the address: traffic to it stops reaching the server."
  holds_data = false
  identity   = ["id"]
}

resource "hcloud_network" {
  summary    = "A Hetzner Cloud private network."
  source     = "https://registry.terraform.io/providers/hetznercloud/hcloud/latest/docs/resources/network"
  rationale  = "Replacement detaches every server and subnet from it."
  holds_data = false
  identity   = ["id"]
  free       = ["labels", "delete_protection"]
}

resource "hcloud_network_subnet" {
  summary    = "A subnet of a private network."
  source     = "https://registry.terraform.io/providers/hetznercloud/hcloud/latest/docs/resources/network_subnet"
  rationale  = "Subnets are immutable: any change replaces the subnet, which fails while servers are attached to it."
  holds_data = false
  identity   = ["id"]
}

resource "hcloud_network_route" {
  summary    = "A route of a private network."
  source     = "https://registry.terraform.io/providers/hetznercloud/hcloud/latest/docs/resources/network_route"
  rationale  = "Any change replaces the route; traffic for that destination is dropped in between."
  holds_data = false
  identity   = ["id"]
}

resource "hcloud_server_network" {
  summary    = "The attachment of a server to a private network."
  source     = "https://registry.terraform.io/providers/hetznercloud/hcloud/latest/docs/resources/server_network"
  rationale  = "Replacement detaches and re-attaches the server: its private IP and MAC address may change."
  holds_data = false
  identity   = ["id", "ip", "mac_address"]
}

resource "hcloud_firewall" {
  summary    = "A Hetzner Cloud firewall."
  source     = "https://registry.terraform.io/providers/hetznercloud/hcloud/latest/docs/resources/firewall"
  rationale  = "Rules change in place and apply at once to every server the firewall is applied to."
  holds_data = false
  identity   = ["id"]
  free       = ["labels"]
}

resource "hcloud_firewall_attachment" {
  summary    = "The application of a firewall to servers or label selectors."
  source     = "https://registry.terraform.io/providers/hetznercloud/hcloud/latest/docs/resources/firewall_attachment"
  rationale  = "Deleting it removes the firewall from those servers, opening them to traffic it blocked."
  holds_data = false
  identity   = ["id"]
}

resource "hcloud_load_balancer" {
  summary    = "A Hetzner Cloud load balancer."
  source     = "https://registry.terraform.io/providers/hetznercloud/hcloud/latest/docs/resources/load_balancer"
  rationale  = "Type and algorithm change in place; replacement gives new public addresses."
  holds_data = false
  identity   = ["id", "ipv4", "ipv6"]
  free       = ["labels", "delete_protection"]
}

resource "hcloud_load_balancer_service" {
  summary    = "A service (listener) of a load balancer."
  source     = "https://registry.terraform.io/providers/hetznercloud/hcloud/latest/docs/resources/load_balancer_service"
  rationale  = "Ports, health checks and certificates change in place; deleting it stops traffic on that port."
  holds_data = false
  identity   = ["id"]
}

resource "hcloud_load_balancer_target" {
  summary    = "A target of a load balancer."
  source     = "https://registry.terraform.io/providers/hetznercloud/hcloud/latest/docs/resources/load_balancer_target"
  rationale  = "Deleting or replacing it removes the target from rotation."
  holds_data = false
  identity   = ["id"]
}

resource "hcloud_ssh_key" {
  summary    = "An SSH public key stored in the project."
  source     = "https://registry.terraform.io/providers/hetznercloud/hcloud/latest/docs/resources/ssh_key"
  rationale  = "Servers keep the keys they were created with; a key change affects new servers only (and replaces servers that reference its id)."
  holds_data = false
  identity   = ["id", "fingerprint"]
  free       = ["labels"]
}

resource "hcloud_placement_group" {
  summary    = "A placement group (spread servers over hosts)."
  source     = "https://registry.terraform.io/providers/hetznercloud/hcloud/latest/docs/resources/placement_group"
  rationale  = "Replacement requires removing its servers first."
  holds_data = false
  identity   = ["id"]
  free       = ["labels"]
}

resource "hcloud_snapshot" {
  summary    = "A server snapshot image."
  source     = "https://registry.terraform.io/providers/hetznercloud/hcloud/latest/docs/resources/snapshot"
  rationale  = "A snapshot is a copy of data: deleting it removes that restore point."
  holds_data = true
  identity   = ["id"]
  free       = ["labels", "description"]
}

resource "hcloud_managed_certificate" {
  summary    = "A Let's Encrypt certificate managed by Hetzner Cloud."
  source     = "https://registry.terraform.io/providers/hetznercloud/hcloud/latest/docs/resources/managed_certificate"
  rationale  = "Domain changes replace the certificate; load balancer services using it must switch."
  holds_data = false
  identity   = ["id", "certificate", "fingerprint"]
  free       = ["labels"]
}

resource "hcloud_rdns" {
  summary    = "A reverse DNS entry of an IP."
  source     = "https://registry.terraform.io/providers/hetznercloud/hcloud/latest/docs/resources/rdns"
  rationale  = "The PTR name changes in place; deleting it resets reverse DNS to the default name."
  holds_data = false
  identity   = ["id"]

  overwrites {
    impact = "in-place"
    what   = "replaces the reverse DNS name of an existing IP address"
    why    = "the PTR record it had (the default name, or one set elsewhere) is overwritten"
    target = ["ip_address", "dns_ptr"]
  }
}
