# ward rules for fakecloud, the project's own test provider (crates/fakecloud): a user rule file,
# written the way a team writes rules for a provider ward's packs do not cover (docs/rules.md).
# It is not shipped knowledge: the example deployment loads it through examples/ward.hcl
# (`rules { files = [...] }`), the stack example through examples/stack/ward.hcl, and tests
# through ward_rig::rules.
#
# Every entry mirrors crates/fakecloud/src/kinds.rs (schema and README): fakecloud exists to
# reproduce, against real Terraform, each hazard ward must see in a plan.

resource "fakecloud_instance" {
  summary    = "A virtual machine."
  source     = "crates/fakecloud/src/kinds.rs"
  rationale  = "A size change restarts the instance in place; image or network changes replace it with a new id, ip and mac."
  holds_data = false
  identity   = ["id", "ip", "mac"]
  free       = ["tags"]

  attribute "name" {
    impact = "in-place"
    why    = "Renamed in place; the instance keeps running."
  }
  attribute "size" {
    impact = "interrupt"
    why    = "The instance is restarted to change its size."
  }
  attribute "admin_password" {
    impact = "in-place"
    why    = "The administrator password is changed in place."
  }
  attribute "image" {
    impact = "replace"
    why    = "A new boot image means a new instance: new id, ip and mac."
  }
  attribute "network_id" {
    impact = "replace"
    why    = "Moving to another network means a new instance: new id, ip and mac."
  }
}

resource "fakecloud_volume" {
  summary    = "A block volume holding data."
  source     = "crates/fakecloud/src/kinds.rs"
  rationale  = "The data lives only on the volume: destroying or replacing it loses the data. Growing size_gb is done in place; shrinking it forces replacement."
  holds_data = true
  identity   = ["id"]
  free       = ["tags"]

  attribute "name" {
    impact = "in-place"
    why    = "Renamed in place."
  }
  attribute "size_gb" {
    impact = "in-place"
    why    = "Growing the volume is done in place (a shrink is planned as a replacement instead)."
  }
}

resource "fakecloud_attachment" {
  summary   = "Attaches a volume to an instance."
  source    = "crates/fakecloud/src/kinds.rs"
  rationale = "Changing either id detaches the volume and attaches again: the instance loses the volume meanwhile."
  identity  = ["id"]

  attribute "instance_id" {
    impact = "replace"
    why    = "The volume is detached from the old instance and attached to the new one."
  }
  attribute "volume_id" {
    impact = "replace"
    why    = "The old volume is detached and the new one attached."
  }
}

resource "fakecloud_bucket" {
  summary    = "An object store bucket holding data."
  source     = "crates/fakecloud/src/kinds.rs"
  rationale  = "The objects live only in the cloud: destroying or replacing the bucket loses them. A non-empty bucket is only destroyed with force_destroy = true."
  holds_data = true
  identity   = ["id", "name"]
  free       = ["tags"]

  attribute "force_destroy" {
    impact = "free"
    why    = "Only changes what a later destroy is allowed to do; the bucket itself is untouched."
  }
  attribute "name" {
    impact = "replace"
    why    = "A bucket cannot be renamed: a new bucket is created and the old one destroyed."
  }
}

resource "fakecloud_network" {
  summary   = "A network."
  source    = "crates/fakecloud/src/kinds.rs"
  rationale = "A cidr change replaces the network; instances on it follow their own plan entries."
  identity  = ["id"]
  free      = ["tags"]

  attribute "name" {
    impact = "in-place"
    why    = "Renamed in place."
  }
  attribute "cidr" {
    impact = "replace"
    why    = "An address range cannot change in place: the network is replaced."
  }
}
