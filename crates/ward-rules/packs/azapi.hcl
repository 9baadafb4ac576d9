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
#
# ARM types known by value: an `azapi_resource` entry narrowed by `when = { type = "...@*" }` reads
# the resource's `type` attribute (it does not change in an update) and answers for that ARM type
# only; it is more specific than the type-only entry, whose answers (holds_data, identity, delete
# and replace costs) still apply to every question it does not answer. Only types whose
# properties Azure's documentation says are updated on the running resource are listed. ARM types
# are matched as written (case included): a type spelled otherwise, and every type not listed
# (Microsoft.Web/sites, whose app settings restart the app; Microsoft.Web/serverfarms, whose SKU
# change moves the apps to new workers; Microsoft.Compute/virtualMachines, whose size change
# restarts it), keeps the worst case, interrupt.

pack {
  name     = "azapi"
  version  = "2026.12.1"
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

resource "azapi_resource" {
  when      = { type = "Microsoft.Automation/automationAccounts@*" }
  source    = "https://learn.microsoft.com/en-us/rest/api/automation/automation-account/update"
  rationale = "An Automation account's properties (SKU, disableLocalAuth, publicNetworkAccess, encryption, identity) are updated on the existing account (the Update operation of the Automation REST API, which the azapi provider's PUT of the same resource id amounts to): its runbooks, schedules and assets stay, and jobs keep running."
  on_update = "in-place"
}

resource "azapi_resource" {
  when      = { type = "Microsoft.Storage/storageAccounts@*" }
  source    = "https://learn.microsoft.com/en-us/azure/storage/common/redundancy-migration"
  rationale = "A storage account's SKU (adding or removing geo-replication or read access: LRS to GRS, GRS to RA-GRS), access tier, network rules and other account properties change on the existing account; Azure documents a replication change as keeping data, endpoints and keys available (a zone-redundancy conversion runs in the background with no loss of availability). Its data (blobs, files, queues, tables) is not in the body."
  on_update = "in-place"
}

resource "azapi_resource" {
  when      = { type = "Microsoft.KeyVault/vaults@*" }
  source    = "https://learn.microsoft.com/en-us/rest/api/keyvault/keyvault/vaults/update"
  rationale = "A Key Vault's properties (SKU, access policies, network ACLs, soft-delete and purge protection settings) are updated on the existing vault (the Vaults Update operation); its keys, secrets and certificates are data plane objects, not in the body, and stay."
  on_update = "in-place"
}

resource "azapi_resource" {
  when      = { type = "Microsoft.Resources/resourceGroups@*" }
  source    = "https://learn.microsoft.com/en-us/rest/api/resources/resource-groups/update"
  rationale = "A resource group's update changes only its tags and managedBy (the Resource Groups Update operation); the resources in it are not touched."
  on_update = "in-place"
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
