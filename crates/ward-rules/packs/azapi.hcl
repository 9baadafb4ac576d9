# ward built-in pack: Azure/azapi, the generic Azure Resource Manager provider.
#
# Schema: unavailable. No package generated from this provider's `providers schema -json` is
# published in the registries this project can reach; the four managed types below are the
# provider documentation's resource pages (docs/resources/{resource,update_resource,
# resource_action,data_plane_resource}.md of github.com/Azure/terraform-provider-azapi at
# c43c57bbdd5e4f8cc8bcaea8c6b83bb6b669db49, 2026-08-13; the other pages there document ARM types
# a `type` argument can name, not Terraform types).
#
# How types were decided: each type manages whatever ARM (or data plane) type its `type` argument
# names, which ward does not read. So every entry is costed as the worst a plausible type of that
# kind can cost: ward cannot tell a tag change on a storage account from a SKU change that
# restarts a virtual machine, nor a storage account from a role assignment. Write narrower rules
# for your own instances (`address = "azapi_resource.logs"`) when you know their type.

pack {
  name     = "azapi"
  version  = "2026.12.0"
  provider = "Azure/azapi"
  schema   = "unavailable: no package generated from the azapi provider schema is published in the npm or PyPI registries; written from the provider documentation"
}

resource "azapi_resource" {
  summary    = "Any Azure Resource Manager resource, given by its ARM type and a JSON body."
  source     = "https://registry.terraform.io/providers/Azure/azapi/latest/docs/resources/resource"
  rationale  = "ward cannot tell which ARM type the resource is (it may be a storage account, a database or a key vault), so deleting or replacing it is assumed to lose data, and an update of its body, which may change a SKU or a setting that restarts the resource, is costed as an interrupt. Changing type, name or parent_id replaces it (the plan says so)."
  holds_data = true
  identity   = ["id"]
  on_update  = "interrupt"
}

resource "azapi_data_plane_resource" {
  summary    = "An Azure data plane object (an App Configuration key-value, a Key Vault or storage object...), given by its type and a JSON body."
  source     = "https://registry.terraform.io/providers/Azure/azapi/latest/docs/resources/data_plane_resource"
  rationale  = "ward cannot tell which data plane type the object is; data plane objects are content (keys, values, items), so deleting or replacing it is assumed to lose data, and an update of its body is costed as an interrupt: what reads the object sees the new content at once."
  holds_data = true
  identity   = ["id"]
  on_update  = "interrupt"
}

resource "azapi_update_resource" {
  summary    = "Properties of an existing ARM resource that Terraform does not otherwise manage."
  source     = "https://registry.terraform.io/providers/Azure/azapi/latest/docs/resources/update_resource"
  rationale  = "Creating it changes properties of a resource that already exists and runs (a SKU, a network rule, a setting): ward cannot tell which, so a create or an update is costed as an interrupt, like an update of azapi_resource. Deleting it performs no operation: the properties stay as they were last set."
  holds_data = false
  identity   = ["id"]
  on_create  = "interrupt"
  on_update  = "interrupt"
  on_delete  = "none"
  on_replace = "interrupt"
}

resource "azapi_resource_action" {
  summary    = "An action (an HTTP call, POST by default) performed on an existing ARM resource."
  source     = "https://registry.terraform.io/providers/Azure/azapi/latest/docs/resources/resource_action"
  rationale  = "The action may be anything the ARM API offers for the resource, named by `action` and `method` (which may be DELETE): starting or stopping a virtual machine, regenerating keys, purging, failing over. ward cannot read which, so every action that can run it is costed as the worst: create and update (the action runs on apply), replace, and delete (it runs on destroy when `when` is destroy)."
  holds_data = false
  identity   = ["id"]
  on_create  = "data-loss"
  on_update  = "data-loss"
  on_delete  = "data-loss"
  on_replace = "data-loss"
}
