# ward built-in pack: hashicorp/azurerm.
#
# Replacement is read from the plan; this pack says which in-place updates restart or deallocate
# something, which objects hold data, and what is identity.
#
# Schema: checked by crates/ward-rules/tests/selfcheck.rs against schemas/azurerm.json (from the
# CDK for Terraform package @cdktf/provider-azurerm, generated from `providers schema -json`;
# see scripts/extract-schemas).

pack {
  name     = "azurerm"
  version  = "2026.11.0"
  provider = "hashicorp/azurerm"
  schema   = "checked"
}

resource "azurerm_resource_group" {
  summary    = "A resource group."
  source     = "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/resource_group"
  rationale  = "Deleting a resource group deletes everything in it (the provider refuses while it still holds resources, unless that feature flag is turned off)."
  holds_data = true
  identity   = ["id", "name"]
  free       = ["tags"]
}

# ---------------------------------------------------------------- compute and disks

resource "azurerm_linux_virtual_machine" {
  summary    = "A Linux virtual machine."
  source     = "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/linux_virtual_machine"
  rationale  = "A size change restarts the VM (deallocating it when the new size is not on the current hardware cluster); replacement deletes the OS disk by default."
  holds_data = true
  identity   = ["id", "virtual_machine_id", "private_ip_address", "private_ip_addresses", "public_ip_address", "public_ip_addresses"]
  free       = ["tags"]

  attribute "size" {
    impact = "interrupt"
    why    = "Resizing restarts the VM, and deallocates it first when the size needs other hardware."
  }
  attribute "os_disk.disk_size_gb" {
    impact = "interrupt"
    why    = "The OS disk can only grow while the VM is deallocated: the provider shuts it down."
  }
}

resource "azurerm_windows_virtual_machine" {
  summary    = "A Windows virtual machine."
  source     = "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/windows_virtual_machine"
  rationale  = "A size change restarts the VM (deallocating it when the new size is not on the current hardware cluster); replacement deletes the OS disk by default."
  holds_data = true
  identity   = ["id", "virtual_machine_id", "private_ip_address", "private_ip_addresses", "public_ip_address", "public_ip_addresses"]
  free       = ["tags"]

  attribute "size" {
    impact = "interrupt"
    why    = "Resizing restarts the VM, and deallocates it first when the size needs other hardware."
  }
  attribute "os_disk.disk_size_gb" {
    impact = "interrupt"
    why    = "The OS disk can only grow while the VM is deallocated: the provider shuts it down."
  }
}

resource "azurerm_virtual_machine" {
  summary    = "A virtual machine (legacy resource)."
  source     = "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/virtual_machine"
  rationale  = "A size change restarts the VM; replacement deletes its disks when delete_os_disk_on_termination / delete_data_disks_on_termination are true."
  holds_data = true
  identity   = ["id"]
  free       = ["tags"]

  attribute "vm_size" {
    impact = "interrupt"
    why    = "Resizing restarts the VM, and deallocates it first when the size needs other hardware."
  }
}

resource "azurerm_linux_virtual_machine_scale_set" {
  summary    = "A Linux virtual machine scale set."
  source     = "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/linux_virtual_machine_scale_set"
  rationale  = "Model changes (SKU, image, extensions) reach running instances per upgrade_mode: Automatic and Rolling upgrade (restart or reimage) them, Manual leaves them; instance count changes in place."
  holds_data = false
  identity   = ["id", "unique_id"]
  free       = ["tags"]

  attribute "sku" {
    impact = "interrupt"
    why    = "Instances are resized (restarted) when upgrade_mode is Automatic or Rolling."
  }
  attribute "source_image_id" {
    impact = "interrupt"
    why    = "Instances are reimaged when upgrade_mode is Automatic or Rolling."
  }
  attribute "instances" {
    impact = "in-place"
    why    = "Instances are added, or deleted, to reach the new count."
  }
}

resource "azurerm_managed_disk" {
  summary    = "A managed disk."
  source     = "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/managed_disk"
  rationale  = "The disk holds data: replacement or deletion loses it. Growing or re-tiering an attached disk may shut down and deallocate its VM."
  holds_data = true
  identity   = ["id"]
  free       = ["tags"]

  attribute "disk_size_gb" {
    impact = "interrupt"
    why    = "The provider shuts down and deallocates the attached VM when Azure cannot resize the disk live."
  }
  attribute "storage_account_type" {
    impact = "interrupt"
    why    = "Changing the disk SKU of an attached disk requires its VM to be deallocated."
  }
}

resource "azurerm_virtual_machine_data_disk_attachment" {
  summary    = "The attachment of a managed disk to a VM."
  source     = "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/virtual_machine_data_disk_attachment"
  rationale  = "Deleting or replacing it detaches the disk from the running VM; the disk and its data remain."
  holds_data = false
  identity   = ["id"]
}

# ---------------------------------------------------------------- networking

resource "azurerm_virtual_network" {
  summary    = "A virtual network."
  source     = "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/virtual_network"
  rationale  = "Address space and DNS servers change in place (VMs pick up DNS changes at renewal or restart); replacement requires removing everything in it."
  holds_data = false
  identity   = ["id", "guid"]
  free       = ["tags"]
}

resource "azurerm_subnet" {
  summary    = "A virtual network subnet."
  source     = "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/subnet"
  rationale  = "Prefixes and service endpoints change in place; replacement requires removing every NIC and service in it."
  holds_data = false
  identity   = ["id"]
}

resource "azurerm_network_interface" {
  summary    = "A network interface."
  source     = "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/network_interface"
  rationale  = "IP configuration changes apply in place; replacement gives a new MAC and, for dynamic allocation, a new private IP."
  holds_data = false
  identity   = ["id", "mac_address", "private_ip_address", "private_ip_addresses", "internal_domain_name_suffix"]
  free       = ["tags"]
}

resource "azurerm_public_ip" {
  summary    = "A public IP address."
  source     = "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/public_ip"
  rationale  = "Replacement allocates a different address, breaking DNS records and allow-lists that name it."
  holds_data = false
  identity   = ["id", "ip_address", "fqdn"]
  free       = ["tags"]
}

resource "azurerm_network_security_group" {
  summary    = "A network security group."
  source     = "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/network_security_group"
  rationale  = "Inline rule changes apply in place and take effect at once for every associated subnet and NIC."
  holds_data = false
  identity   = ["id"]
  free       = ["tags"]
}

resource "azurerm_network_security_rule" {
  summary    = "One rule of a network security group."
  source     = "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/network_security_rule"
  rationale  = "Rule changes apply in place at once; deleting it stops (or, for deny rules, allows) the traffic it matched."
  holds_data = false
  identity   = ["id"]
  free       = ["description"]
}

resource "azurerm_subnet_network_security_group_association" {
  summary    = "The association of a network security group with a subnet."
  source     = "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/subnet_network_security_group_association"
  rationale  = "Deleting or replacing it removes the subnet's filtering until it is associated again."
  holds_data = false
  identity   = ["id"]
}

resource "azurerm_route_table" {
  summary    = "A route table."
  source     = "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/route_table"
  rationale  = "Inline route changes apply in place and redirect traffic at once."
  holds_data = false
  identity   = ["id"]
  free       = ["tags"]
}

resource "azurerm_subnet_route_table_association" {
  summary    = "The association of a route table with a subnet."
  source     = "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/subnet_route_table_association"
  rationale  = "Deleting or replacing it returns the subnet to system routes until it is associated again."
  holds_data = false
  identity   = ["id"]
}

resource "azurerm_nat_gateway" {
  summary    = "A NAT gateway."
  source     = "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/nat_gateway"
  rationale  = "Settings change in place; replacement or deletion cuts outbound traffic of the subnets that use it."
  holds_data = false
  identity   = ["id", "resource_guid"]
  free       = ["tags"]
}

resource "azurerm_virtual_network_peering" {
  summary    = "A virtual network peering."
  source     = "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/virtual_network_peering"
  rationale  = "Traffic settings change in place; replacement tears the peering down, stopping traffic between the networks."
  holds_data = false
  identity   = ["id"]
}

resource "azurerm_lb" {
  summary    = "A load balancer."
  source     = "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/lb"
  rationale  = "Frontend changes apply in place; replacement drops all its rules and gives new frontend IPs unless they are static public IPs."
  holds_data = false
  identity   = ["id", "private_ip_address", "private_ip_addresses"]
  free       = ["tags"]
}

resource "azurerm_lb_backend_address_pool" {
  summary    = "A load balancer backend pool."
  source     = "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/lb_backend_address_pool"
  rationale  = "Deleting or replacing it removes every backend from the rules that use it."
  holds_data = false
  identity   = ["id"]
}

resource "azurerm_lb_rule" {
  summary    = "A load balancing rule."
  source     = "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/lb_rule"
  rationale  = "Ports and settings change in place; deleting the rule stops that traffic."
  holds_data = false
  identity   = ["id"]
}

resource "azurerm_lb_probe" {
  summary    = "A load balancer health probe."
  source     = "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/lb_probe"
  rationale  = "Changes apply in place; a wrong probe marks healthy backends down."
  holds_data = false
  identity   = ["id"]
}

resource "azurerm_application_gateway" {
  summary    = "An Application Gateway."
  source     = "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/application_gateway"
  rationale  = "Listener, rule and backend changes apply in place (an update can take minutes); replacement gives new frontend IPs unless they are static."
  holds_data = false
  identity   = ["id"]
  free       = ["tags"]
}

resource "azurerm_private_endpoint" {
  summary    = "A private endpoint."
  source     = "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/private_endpoint"
  rationale  = "Replacement gives a new private IP: clients resolving the service through private DNS see the new address once the zone group updates."
  holds_data = false
  identity   = ["id", "network_interface", "private_service_connection.private_ip_address", "custom_dns_configs"]
  free       = ["tags"]
}

resource "azurerm_dns_zone" {
  summary    = "A public DNS zone."
  source     = "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/dns_zone"
  rationale  = "The zone holds its records: deletion loses them, and replacement gives new name servers (the parent delegation must change)."
  holds_data = true
  identity   = ["id", "name_servers"]
  free       = ["tags"]
}

resource "azurerm_dns_a_record" {
  summary    = "A DNS A record set."
  source     = "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/dns_a_record"
  rationale  = "Records and TTL change in place; resolvers see the change after the old TTL expires."
  holds_data = false
  identity   = ["id", "fqdn"]
  free       = ["tags"]
}

resource "azurerm_dns_cname_record" {
  summary    = "A DNS CNAME record."
  source     = "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/dns_cname_record"
  rationale  = "The target and TTL change in place; resolvers see the change after the old TTL expires."
  holds_data = false
  identity   = ["id", "fqdn"]
  free       = ["tags"]
}

resource "azurerm_private_dns_zone" {
  summary    = "A private DNS zone."
  source     = "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/private_dns_zone"
  rationale  = "The zone holds its records: deletion or replacement loses them and breaks private name resolution for linked networks."
  holds_data = true
  identity   = ["id"]
  free       = ["tags"]
}

resource "azurerm_private_dns_a_record" {
  summary    = "A private DNS A record set."
  source     = "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/private_dns_a_record"
  rationale  = "Records and TTL change in place; resolvers see the change after the old TTL expires."
  holds_data = false
  identity   = ["id", "fqdn"]
  free       = ["tags"]
}

# ---------------------------------------------------------------- storage and data

resource "azurerm_storage_account" {
  summary    = "A storage account."
  source     = "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/storage_account"
  rationale  = "The account holds every blob, file, queue and table in it: replacement or deletion loses them. Replication and access tier change in place."
  holds_data = true
  identity   = ["id", "primary_blob_endpoint", "primary_access_key", "primary_connection_string", "primary_web_endpoint"]
  free       = ["tags"]
}

resource "azurerm_storage_container" {
  summary    = "A blob container."
  source     = "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/storage_container"
  rationale  = "The container holds blobs: replacement or deletion loses them."
  holds_data = true
  identity   = ["id", "resource_manager_id"]
}

resource "azurerm_storage_blob" {
  summary    = "A blob."
  source     = "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/storage_blob"
  rationale  = "The blob is data: replacing or deleting it overwrites or removes the content."
  holds_data = true
  identity   = ["id", "url"]
}

resource "azurerm_storage_share" {
  summary    = "An Azure Files share."
  source     = "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/storage_share"
  rationale  = "The share holds files: replacement or deletion loses them. The quota changes in place."
  holds_data = true
  identity   = ["id", "url", "resource_manager_id"]
}

resource "azurerm_mssql_server" {
  summary    = "An Azure SQL logical server."
  source     = "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/mssql_server"
  rationale  = "Deleting or replacing the server deletes every database on it; administrator password changes apply in place."
  holds_data = true
  identity   = ["id", "fully_qualified_domain_name"]
  free       = ["tags"]
}

resource "azurerm_mssql_database" {
  summary    = "An Azure SQL database."
  source     = "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/mssql_database"
  rationale  = "The database holds data: replacement or deletion loses it. Scaling runs online but drops connections at the switch-over."
  holds_data = true
  identity   = ["id"]
  free       = ["tags"]

  attribute "sku_name" {
    impact = "interrupt"
    why    = "Scaling copies the database to new resources online, then drops open connections at the switch-over."
  }
  attribute "max_size_gb" {
    impact = "in-place"
    why    = "The size limit changes online."
  }
}

resource "azurerm_postgresql_flexible_server" {
  summary    = "An Azure Database for PostgreSQL flexible server."
  source     = "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/postgresql_flexible_server"
  rationale  = "Compute size and major version changes restart the server; replacement or deletion loses its databases."
  holds_data = true
  identity   = ["id", "fqdn"]
  free       = ["tags"]

  attribute "sku_name" {
    impact = "interrupt"
    why    = "Scaling compute restarts the server (with high availability, a failover)."
  }
  attribute "version" {
    impact = "interrupt"
    why    = "An in-place major version upgrade takes the server offline while it runs."
  }
  attribute "storage_mb" {
    impact = "in-place"
    why    = "Storage grows online; it cannot shrink."
  }
}

resource "azurerm_postgresql_flexible_server_database" {
  summary    = "A database on a PostgreSQL flexible server."
  source     = "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/postgresql_flexible_server_database"
  rationale  = "The database holds data: deleting or replacing it drops it."
  holds_data = true
  identity   = ["id"]
}

resource "azurerm_mysql_flexible_server" {
  summary    = "An Azure Database for MySQL flexible server."
  source     = "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/mysql_flexible_server"
  rationale  = "Compute size and version changes restart the server; replacement or deletion loses its databases."
  holds_data = true
  identity   = ["id", "fqdn"]
  free       = ["tags"]

  attribute "sku_name" {
    impact = "interrupt"
    why    = "Scaling compute restarts the server (with high availability, a failover)."
  }
  attribute "version" {
    impact = "interrupt"
    why    = "A major version upgrade takes the server offline while it runs."
  }
}

resource "azurerm_cosmosdb_account" {
  summary    = "An Azure Cosmos DB account."
  source     = "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/cosmosdb_account"
  rationale  = "The account holds every database and container in it: replacement or deletion loses them."
  holds_data = true
  identity   = ["id", "endpoint", "primary_key", "read_endpoints", "write_endpoints"]
  free       = ["tags"]
}

resource "azurerm_redis_cache" {
  summary    = "An Azure Cache for Redis."
  source     = "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/redis_cache"
  rationale  = "Scaling a Basic cache takes it offline and loses its data; Standard and Premium fail over. Replacement loses the data."
  holds_data = true
  identity   = ["id", "hostname", "primary_access_key", "primary_connection_string"]
  free       = ["tags"]

  attribute "capacity" {
    impact = "interrupt"
    why    = "Scaling a Basic cache makes it unavailable and loses its data; Standard and Premium fail over to a replica."
  }
  attribute "sku_name" {
    impact = "interrupt"
    why    = "Changing tier (e.g. Basic to Standard) scales the cache, with downtime for Basic."
  }
}

resource "azurerm_servicebus_namespace" {
  summary    = "A Service Bus namespace."
  source     = "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/servicebus_namespace"
  rationale  = "Deleting or replacing it deletes every queue and topic in it, with their messages."
  holds_data = true
  identity   = ["id", "endpoint", "default_primary_connection_string"]
  free       = ["tags"]
}

resource "azurerm_servicebus_queue" {
  summary    = "A Service Bus queue."
  source     = "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/servicebus_queue"
  rationale  = "The queue holds messages: replacement or deletion loses those not yet received."
  holds_data = true
  identity   = ["id"]
}

resource "azurerm_log_analytics_workspace" {
  summary    = "A Log Analytics workspace."
  source     = "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/log_analytics_workspace"
  rationale  = "The workspace holds logs: replacement or deletion loses them; a shorter retention deletes older data."
  holds_data = true
  identity   = ["id", "workspace_id", "primary_shared_key"]
  free       = ["tags"]
}

resource "azurerm_application_insights" {
  summary    = "An Application Insights component."
  source     = "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/application_insights"
  rationale  = "It holds telemetry: replacement or deletion loses it, and the new component has a new connection string."
  holds_data = true
  identity   = ["id", "app_id", "instrumentation_key", "connection_string"]
  free       = ["tags"]
}

resource "azurerm_monitor_diagnostic_setting" {
  summary    = "A diagnostic setting (where a resource sends logs and metrics)."
  source     = "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/monitor_diagnostic_setting"
  rationale  = "Configuration only; delivered logs stay in their destination."
  holds_data = false
  identity   = ["id"]
}

resource "azurerm_monitor_metric_alert" {
  summary    = "A metric alert rule."
  source     = "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/monitor_metric_alert"
  rationale  = "Criteria change in place; deleting it stops the alerts."
  holds_data = false
  identity   = ["id"]
  free       = ["tags", "description"]
}

# ---------------------------------------------------------------- containers and apps

resource "azurerm_kubernetes_cluster" {
  summary    = "An AKS Kubernetes cluster."
  source     = "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/kubernetes_cluster"
  rationale  = "Version and default node pool changes upgrade or rotate nodes (pods are drained); replacement or deletion loses every Kubernetes object in the cluster."
  holds_data = true
  identity   = ["id", "fqdn", "private_fqdn", "kube_config", "kube_admin_config", "oidc_issuer_url", "node_resource_group"]
  free       = ["tags"]

  attribute "kubernetes_version" {
    impact = "interrupt"
    why    = "The control plane is upgraded, then nodes are upgraded by draining and reimaging them."
  }
  attribute "default_node_pool.orchestrator_version" {
    impact = "interrupt"
    why    = "Nodes of the default pool are upgraded by draining and reimaging them."
  }
  attribute "default_node_pool.vm_size" {
    impact = "interrupt"
    why    = "The provider rotates the default pool through temporary_name_for_rotation: every node is replaced and drained."
  }
  attribute "default_node_pool.node_count" {
    impact = "in-place"
    why    = "Nodes are added, or drained and removed."
  }
}

resource "azurerm_kubernetes_cluster_node_pool" {
  summary    = "An AKS node pool."
  source     = "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/kubernetes_cluster_node_pool"
  rationale  = "Version changes upgrade nodes by draining and reimaging them; count changes in place."
  holds_data = false
  identity   = ["id"]
  free       = ["tags"]

  attribute "orchestrator_version" {
    impact = "interrupt"
    why    = "Nodes are upgraded by draining and reimaging them."
  }
  attribute "node_count" {
    impact = "in-place"
    why    = "Nodes are added, or drained and removed."
  }
}

resource "azurerm_container_registry" {
  summary    = "An Azure Container Registry."
  source     = "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/container_registry"
  rationale  = "The registry holds images: replacement or deletion loses them. SKU changes apply in place."
  holds_data = true
  identity   = ["id", "login_server", "admin_password"]
  free       = ["tags"]
}

resource "azurerm_container_group" {
  summary    = "An Azure Container Instances group."
  source     = "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/container_group"
  rationale  = "Almost every change replaces the group: containers restart with a new IP and lose local files."
  holds_data = false
  identity   = ["id", "ip_address", "fqdn"]
  free       = ["tags"]
}

resource "azurerm_service_plan" {
  summary    = "An App Service plan."
  source     = "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/service_plan"
  rationale  = "Scaling up moves the apps to new workers (they restart); scaling out adds instances in place."
  holds_data = false
  identity   = ["id"]
  free       = ["tags"]

  attribute "sku_name" {
    impact = "interrupt"
    why    = "Changing the tier moves every app on the plan to new workers, restarting them."
  }
  attribute "worker_count" {
    impact = "in-place"
    why    = "Instances are added or removed."
  }
}

resource "azurerm_linux_web_app" {
  summary    = "A Linux App Service web app."
  source     = "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/linux_web_app"
  rationale  = "App settings, connection strings and site configuration changes restart the app; replacement gives a new default host name."
  holds_data = false
  identity   = ["id", "default_hostname", "outbound_ip_addresses", "possible_outbound_ip_addresses"]
  free       = ["tags"]

  attribute "app_settings" {
    impact = "interrupt"
    why    = "Changing app settings restarts the app."
  }
  attribute "connection_string" {
    impact = "interrupt"
    why    = "Changing connection strings restarts the app."
  }
  attribute "site_config" {
    impact = "interrupt"
    why    = "Most site configuration changes (runtime stack, container image) restart the app."
  }
}

resource "azurerm_windows_web_app" {
  summary    = "A Windows App Service web app."
  source     = "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/windows_web_app"
  rationale  = "App settings, connection strings and site configuration changes restart the app; replacement gives a new default host name."
  holds_data = false
  identity   = ["id", "default_hostname", "outbound_ip_addresses", "possible_outbound_ip_addresses"]
  free       = ["tags"]

  attribute "app_settings" {
    impact = "interrupt"
    why    = "Changing app settings restarts the app."
  }
  attribute "connection_string" {
    impact = "interrupt"
    why    = "Changing connection strings restarts the app."
  }
  attribute "site_config" {
    impact = "interrupt"
    why    = "Most site configuration changes (runtime stack, container image) restart the app."
  }
}

resource "azurerm_linux_function_app" {
  summary    = "A Linux Function App."
  source     = "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/linux_function_app"
  rationale  = "App settings and site configuration changes restart the app; replacement gives a new default host name."
  holds_data = false
  identity   = ["id", "default_hostname", "outbound_ip_addresses"]
  free       = ["tags"]

  attribute "app_settings" {
    impact = "interrupt"
    why    = "Changing app settings restarts the app."
  }
  attribute "site_config" {
    impact = "interrupt"
    why    = "Most site configuration changes restart the app."
  }
}

# ---------------------------------------------------------------- identity and secrets

resource "azurerm_key_vault" {
  summary    = "A Key Vault."
  source     = "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/key_vault"
  rationale  = "The vault holds keys, secrets and certificates: deletion soft-deletes them (and purges them unless purge protection is on or the provider's purge feature is off)."
  holds_data = true
  identity   = ["id", "vault_uri"]
  free       = ["tags"]
}

resource "azurerm_key_vault_secret" {
  summary    = "A Key Vault secret."
  source     = "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/key_vault_secret"
  rationale  = "A changed value is stored as a new version; readers of the unversioned id see it at once."
  holds_data = false
  identity   = ["id", "version", "versionless_id", "resource_id"]
  free       = ["tags"]
}

resource "azurerm_key_vault_key" {
  summary    = "A Key Vault key."
  source     = "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/key_vault_key"
  rationale  = "Deleting or replacing the key makes data encrypted with it unrecoverable once the key is purged."
  holds_data = true
  identity   = ["id", "version", "versionless_id", "resource_id", "public_key_pem"]
  free       = ["tags"]
}

resource "azurerm_user_assigned_identity" {
  summary    = "A user-assigned managed identity."
  source     = "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/user_assigned_identity"
  rationale  = "Replacement creates a new principal: role assignments and federated credentials of the old one no longer apply."
  holds_data = false
  identity   = ["id", "principal_id", "client_id", "tenant_id"]
  free       = ["tags"]
}

resource "azurerm_role_assignment" {
  summary    = "An Azure RBAC role assignment."
  source     = "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/role_assignment"
  rationale  = "Assignments are immutable: any change replaces it, and the principal lacks the role in between."
  holds_data = false
  identity   = ["id"]
}

# ---------------------------------------------------------------- more data stores, networking and operations

resource "azurerm_windows_virtual_machine_scale_set" {
  summary    = "A Windows virtual machine scale set."
  source     = "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/windows_virtual_machine_scale_set"
  rationale  = "Model changes reach running instances per upgrade_mode: Automatic and Rolling upgrade (restart or reimage) them, Manual leaves them; instance count changes in place."
  holds_data = false
  identity   = ["id", "unique_id"]
  free       = ["tags"]

  attribute "sku" {
    impact = "interrupt"
    why    = "Instances are resized (restarted) when upgrade_mode is Automatic or Rolling."
  }

  attribute "instances" {
    impact = "in-place"
    why    = "Instances are added, or deleted, to reach the new count."
  }
}

resource "azurerm_snapshot" {
  summary    = "A managed disk snapshot."
  source     = "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/snapshot"
  rationale  = "A snapshot is a copy of data: deleting it removes that restore point."
  holds_data = true
  identity   = ["id"]
  free       = ["tags"]
}

resource "azurerm_network_interface_security_group_association" {
  summary    = "The association of a network security group with a NIC."
  source     = "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/network_interface_security_group_association"
  rationale  = "Deleting or replacing it removes the NIC's filtering until it is associated again."
  holds_data = false
  identity   = ["id"]
}

resource "azurerm_firewall" {
  summary    = "An Azure Firewall."
  source     = "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/firewall"
  rationale  = "Settings change in place (updates can take minutes); replacement gives new private and public IPs unless they are static resources."
  holds_data = false
  identity   = ["id"]
  free       = ["tags"]
}

resource "azurerm_bastion_host" {
  summary    = "An Azure Bastion host."
  source     = "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/bastion_host"
  rationale  = "Settings change in place; deleting it ends open sessions."
  holds_data = false
  identity   = ["id", "dns_name"]
  free       = ["tags"]
}

resource "azurerm_virtual_network_gateway" {
  summary    = "A VPN or ExpressRoute gateway."
  source     = "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/virtual_network_gateway"
  rationale  = "SKU and settings change in place (tunnels may reconnect); replacement takes a long time, tears down every connection and may change the public IP."
  holds_data = false
  identity   = ["id"]
  free       = ["tags"]
}

resource "azurerm_storage_queue" {
  summary    = "A storage queue."
  source     = "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/storage_queue"
  rationale  = "The queue holds messages: replacement or deletion loses them."
  holds_data = true
  identity   = ["id", "resource_manager_id"]
}

resource "azurerm_storage_table" {
  summary    = "A storage table."
  source     = "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/storage_table"
  rationale  = "The table holds entities: replacement or deletion loses them."
  holds_data = true
  identity   = ["id"]
}

resource "azurerm_servicebus_topic" {
  summary    = "A Service Bus topic."
  source     = "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/servicebus_topic"
  rationale  = "Deleting or replacing it deletes its subscriptions and their messages."
  holds_data = true
  identity   = ["id"]
}

resource "azurerm_eventhub_namespace" {
  summary    = "An Event Hubs namespace."
  source     = "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/eventhub_namespace"
  rationale  = "Deleting or replacing it deletes every event hub in it with its retained events; capacity changes apply in place."
  holds_data = true
  identity   = ["id", "default_primary_connection_string"]
  free       = ["tags"]
}

resource "azurerm_eventhub" {
  summary    = "An event hub."
  source     = "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/eventhub"
  rationale  = "The hub retains events for its retention period: replacement or deletion loses them."
  holds_data = true
  identity   = ["id", "partition_ids"]
}

resource "azurerm_cosmosdb_sql_database" {
  summary    = "A Cosmos DB SQL database."
  source     = "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/cosmosdb_sql_database"
  rationale  = "The database holds containers and items: replacement or deletion loses them; throughput changes apply online."
  holds_data = true
  identity   = ["id"]
}

resource "azurerm_cosmosdb_sql_container" {
  summary    = "A Cosmos DB SQL container."
  source     = "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/cosmosdb_sql_container"
  rationale  = "The container holds items: replacement (e.g. a new partition key) or deletion loses them; indexing and throughput change online."
  holds_data = true
  identity   = ["id"]
}

resource "azurerm_mssql_elasticpool" {
  summary    = "An Azure SQL elastic pool."
  source     = "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/mssql_elasticpool"
  rationale  = "Scaling runs online but drops connections of its databases at the switch-over."
  holds_data = false
  identity   = ["id"]
  free       = ["tags"]

  attribute "sku" {
    impact = "interrupt"
    why    = "Scaling the pool drops open connections at the switch-over."
  }
}

resource "azurerm_mssql_firewall_rule" {
  summary    = "An Azure SQL server firewall rule."
  source     = "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/mssql_firewall_rule"
  rationale  = "The range changes in place at once; deleting it blocks clients from that range."
  holds_data = false
  identity   = ["id"]
}

resource "azurerm_postgresql_flexible_server_firewall_rule" {
  summary    = "A PostgreSQL flexible server firewall rule."
  source     = "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/postgresql_flexible_server_firewall_rule"
  rationale  = "The range changes in place at once; deleting it blocks clients from that range."
  holds_data = false
  identity   = ["id"]
}

resource "azurerm_recovery_services_vault" {
  summary    = "A Recovery Services vault."
  source     = "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/recovery_services_vault"
  rationale  = "The vault holds backups: deletion (once emptied) loses them."
  holds_data = true
  identity   = ["id"]
  free       = ["tags"]
}

resource "azurerm_backup_policy_vm" {
  summary    = "A VM backup policy."
  source     = "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/backup_policy_vm"
  rationale  = "Schedule and retention change in place; shorter retention deletes older recovery points."
  holds_data = false
  identity   = ["id"]
}

resource "azurerm_monitor_action_group" {
  summary    = "A monitor action group."
  source     = "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/monitor_action_group"
  rationale  = "Receivers change in place; alerts stop reaching removed receivers."
  holds_data = false
  identity   = ["id"]
  free       = ["tags"]
}

resource "azurerm_api_management" {
  summary    = "An API Management service."
  source     = "https://registry.terraform.io/providers/hashicorp/azurerm/latest/docs/resources/api_management"
  rationale  = "SKU and settings change in place (updates can take a long time); replacement gives new gateway URLs and loses APIs and subscriptions not managed elsewhere."
  holds_data = true
  identity   = ["id", "gateway_url", "public_ip_addresses", "private_ip_addresses"]
  free       = ["tags"]
}

