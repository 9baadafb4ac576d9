# A three-layer stack on fakecloud, two sites (see docs/stack.md). Copy this directory to a place
# of its own before running it, with the fakecloud rule file beside it: state and backups go
# next to the copy, outside it.
#
#   cp -r examples/stack /tmp/site && cp -r examples/rules /tmp/rules && cd /tmp/site
#   FAKECLOUD_DIR=/tmp/site-cloud ward stack apply

# fakecloud is ward's test provider, which no built-in pack covers: its rules are a user rule file.
rules {
  files = ["../rules/fakecloud.hcl"]
}

stack {
  # Outside the repository: a backup in a checkout is lost with it.
  backup_dir = "../site-backups"
}

layer "substrate" {
  level = 0
}
layer "nodes" {
  level = 1
}
layer "resources" {
  level = 2
}

root "network" {
  path  = "network"
  layer = "substrate"
  site "dc0" {
    var_files      = ["dc0.tfvars"]
    backend_config = { path = "../../site-state/dc0/network.tfstate" }
  }
  site "dc1" {
    var_files      = ["dc1.tfvars"]
    backend_config = { path = "../../site-state/dc1/network.tfstate" }
  }
}

root "instances" {
  path  = "instances"
  layer = "nodes"
  reads = ["network"]
  site "dc0" {
    var_files      = ["dc0.tfvars"]
    backend_config = { path = "../../site-state/dc0/instances.tfstate" }
  }
  site "dc1" {
    var_files      = ["dc1.tfvars"]
    backend_config = { path = "../../site-state/dc1/instances.tfstate" }
  }
  # Runs before the instances are destroyed, as `ward gate` runs guards; a non-zero exit stops
  # the teardown (`ward stack resume` continues it).
  pre_destroy "drained" {
    command = ["sh", "-c", "test ! -e \"../../site-hold-$WARD_SITE\" || { echo \"site $WARD_SITE is on hold\" >&2; exit 1; }"]
    timeout = "30s"
  }
}

root "volumes" {
  path  = "volumes"
  layer = "resources"
  reads = ["instances"]
  site "dc0" {
    var_files      = ["dc0.tfvars"]
    backend_config = { path = "../../site-state/dc0/volumes.tfstate" }
  }
  site "dc1" {
    var_files      = ["dc1.tfvars"]
    backend_config = { path = "../../site-state/dc1/volumes.tfstate" }
  }
}
