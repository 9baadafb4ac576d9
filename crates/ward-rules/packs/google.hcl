# ward built-in pack: hashicorp/google.
#
# Replacement is read from the plan; this pack says which in-place updates stop or restart
# something, which objects hold data, and what is identity.
#
# Schema: checked by crates/ward-rules/tests/selfcheck.rs against schemas/google.json (from the
# CDK for Terraform package @cdktf/provider-google, generated from `providers schema -json`;
# see scripts/extract-schemas).

pack {
  name     = "google"
  version  = "2026.11.0"
  provider = "hashicorp/google"
  schema   = "checked"
}

# ---------------------------------------------------------------- compute

resource "google_compute_instance" {
  summary    = "A Compute Engine virtual machine."
  source     = "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/compute_instance"
  rationale  = "Machine type, CPU platform, service account, shielded VM and display changes need the VM stopped (allowed only with allow_stopping_for_update = true); replacement deletes the boot disk unless auto_delete is false."
  holds_data = true
  identity   = ["id", "instance_id", "self_link", "network_interface.network_ip", "network_interface.access_config.nat_ip"]
  free       = ["labels", "terraform_labels", "effective_labels", "allow_stopping_for_update", "deletion_protection"]

  attribute "machine_type" {
    impact = "interrupt"
    why    = "The provider stops the VM, changes its machine type and starts it again (requires allow_stopping_for_update = true)."
  }
  attribute "min_cpu_platform" {
    impact = "interrupt"
    why    = "Changing the CPU platform requires stopping the VM (allow_stopping_for_update)."
  }
  attribute "service_account" {
    impact = "interrupt"
    why    = "Changing the service account or its scopes requires stopping the VM (allow_stopping_for_update)."
  }
  attribute "shielded_instance_config" {
    impact = "interrupt"
    why    = "Shielded VM options can only change while the VM is stopped (allow_stopping_for_update)."
  }
  attribute "enable_display" {
    impact = "interrupt"
    why    = "The virtual display can only change while the VM is stopped (allow_stopping_for_update)."
  }
  attribute "metadata" {
    impact = "in-place"
    why    = "Metadata updates live; a changed startup-script runs only at the next boot."
  }
  attribute "tags" {
    impact = "in-place"
    why    = "Network tags select firewall rules and routes: changing them changes what traffic reaches the VM."
  }
}

resource "google_compute_instance_template" {
  summary    = "A Compute Engine instance template."
  source     = "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/compute_instance_template"
  rationale  = "Templates are immutable: every change replaces the template; running VMs are untouched until their group rolls them."
  holds_data = false
  identity   = ["id", "self_link", "self_link_unique"]
}

resource "google_compute_instance_group_manager" {
  summary    = "A zonal managed instance group."
  source     = "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/compute_instance_group_manager"
  rationale  = "A new template version rolls the VMs when update_policy.type is PROACTIVE (VMs are recreated); size changes create or delete VMs."
  holds_data = false
  identity   = ["id", "self_link", "instance_group"]
  free       = ["description"]

  attribute "version" {
    impact = "interrupt"
    why    = "With a PROACTIVE update policy the group recreates its VMs on the new template (within max_surge/max_unavailable)."
  }
  attribute "target_size" {
    impact = "in-place"
    why    = "VMs are created or deleted to reach the new size."
  }
}

resource "google_compute_region_instance_group_manager" {
  summary    = "A regional managed instance group."
  source     = "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/compute_region_instance_group_manager"
  rationale  = "A new template version rolls the VMs when update_policy.type is PROACTIVE (VMs are recreated); size changes create or delete VMs."
  holds_data = false
  identity   = ["id", "self_link", "instance_group"]
  free       = ["description"]

  attribute "version" {
    impact = "interrupt"
    why    = "With a PROACTIVE update policy the group recreates its VMs on the new template (within max_surge/max_unavailable)."
  }
  attribute "target_size" {
    impact = "in-place"
    why    = "VMs are created or deleted to reach the new size."
  }
}

resource "google_compute_disk" {
  summary    = "A Compute Engine persistent disk."
  source     = "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/compute_disk"
  rationale  = "The disk holds data: replacement or deletion loses it. It can only grow, online."
  holds_data = true
  identity   = ["id", "self_link", "disk_id"]
  free       = ["labels", "terraform_labels", "effective_labels"]

  attribute "size" {
    impact = "in-place"
    why    = "The disk grows online; the file system must still be grown inside the guest. Shrinking forces replacement."
  }
}

resource "google_compute_attached_disk" {
  summary    = "The attachment of a persistent disk to a VM."
  source     = "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/compute_attached_disk"
  rationale  = "Deleting or replacing it detaches the disk from the running VM; the disk and its data remain."
  holds_data = false
  identity   = ["id"]
}

resource "google_compute_snapshot" {
  summary    = "A persistent disk snapshot."
  source     = "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/compute_snapshot"
  rationale  = "A snapshot is a copy of data: deleting it removes that restore point."
  holds_data = true
  identity   = ["id", "self_link", "snapshot_id"]
  free       = ["labels", "terraform_labels", "effective_labels"]
}

resource "google_compute_address" {
  summary    = "A regional static IP address."
  source     = "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/compute_address"
  rationale  = "Replacement releases the address: the new one differs, breaking DNS records and allow-lists that name it."
  holds_data = false
  identity   = ["id", "address", "self_link"]
  free       = ["labels", "terraform_labels", "effective_labels"]
}

resource "google_compute_global_address" {
  summary    = "A global static IP address."
  source     = "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/compute_global_address"
  rationale  = "Replacement releases the address: the new one differs, breaking DNS records that name it."
  holds_data = false
  identity   = ["id", "address", "self_link"]
  free       = ["labels", "terraform_labels", "effective_labels"]
}

# ---------------------------------------------------------------- networking

resource "google_compute_network" {
  summary    = "A VPC network."
  source     = "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/compute_network"
  rationale  = "Replacing a network means removing everything attached to it first."
  holds_data = false
  identity   = ["id", "self_link", "network_id"]
}

resource "google_compute_subnetwork" {
  summary    = "A VPC subnetwork."
  source     = "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/compute_subnetwork"
  rationale  = "The primary range can be expanded in place; replacement requires removing every VM and service in it."
  holds_data = false
  identity   = ["id", "self_link", "gateway_address"]
  free       = ["description"]
}

resource "google_compute_firewall" {
  summary    = "A VPC firewall rule."
  source     = "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/compute_firewall"
  rationale  = "Rule changes apply in place and take effect at once; deleting the rule stops (or, for deny rules, allows) the traffic it matched."
  holds_data = false
  identity   = ["id", "self_link"]
  free       = ["description"]
}

resource "google_compute_route" {
  summary    = "A VPC static route."
  source     = "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/compute_route"
  rationale  = "Routes are immutable: any change replaces the route, dropping matching traffic in between."
  holds_data = false
  identity   = ["id", "self_link"]
}

resource "google_compute_router" {
  summary    = "A Cloud Router."
  source     = "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/compute_router"
  rationale  = "BGP settings change in place (sessions may reset); replacement removes its NATs and BGP sessions."
  holds_data = false
  identity   = ["id", "self_link"]
  free       = ["description"]
}

resource "google_compute_router_nat" {
  summary    = "A Cloud NAT gateway."
  source     = "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/compute_router_nat"
  rationale  = "Settings change in place; replacement or deletion cuts outbound traffic of private VMs, and auto-allocated NAT IPs change."
  holds_data = false
  identity   = ["id"]
}

resource "google_compute_network_peering" {
  summary    = "A VPC network peering."
  source     = "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/compute_network_peering"
  rationale  = "Route export/import settings change in place; replacement tears the peering down, stopping traffic between the networks."
  holds_data = false
  identity   = ["id"]
}

resource "google_compute_forwarding_rule" {
  summary    = "A regional forwarding rule (load balancer frontend)."
  source     = "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/compute_forwarding_rule"
  rationale  = "Replacement gives a new IP unless a reserved address is set; traffic to the frontend stops in between."
  holds_data = false
  identity   = ["id", "self_link", "ip_address", "forwarding_rule_id"]
  free       = ["labels", "terraform_labels", "effective_labels"]
}

resource "google_compute_global_forwarding_rule" {
  summary    = "A global forwarding rule (load balancer frontend)."
  source     = "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/compute_global_forwarding_rule"
  rationale  = "Replacement gives a new IP unless a reserved address is set; traffic to the frontend stops in between."
  holds_data = false
  identity   = ["id", "self_link", "ip_address"]
  free       = ["labels", "terraform_labels", "effective_labels"]
}

resource "google_compute_backend_service" {
  summary    = "A global backend service."
  source     = "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/compute_backend_service"
  rationale  = "Backends, health checks and policies change in place and re-route traffic at once."
  holds_data = false
  identity   = ["id", "self_link", "generated_id", "fingerprint"]
  free       = ["description"]
}

resource "google_compute_health_check" {
  summary    = "A health check."
  source     = "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/compute_health_check"
  rationale  = "Changes apply in place; a wrong check marks healthy backends down."
  holds_data = false
  identity   = ["id", "self_link"]
  free       = ["description"]
}

resource "google_compute_url_map" {
  summary    = "A URL map (HTTP(S) load balancer routing)."
  source     = "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/compute_url_map"
  rationale  = "Routing changes apply in place and re-route matching requests at once."
  holds_data = false
  identity   = ["id", "self_link", "map_id", "fingerprint"]
  free       = ["description"]
}

resource "google_compute_target_https_proxy" {
  summary    = "A target HTTPS proxy."
  source     = "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/compute_target_https_proxy"
  rationale  = "Certificate and URL map changes apply in place; replacement requires detaching it from its forwarding rule."
  holds_data = false
  identity   = ["id", "self_link", "proxy_id"]
}

resource "google_compute_managed_ssl_certificate" {
  summary    = "A Google-managed SSL certificate."
  source     = "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/compute_managed_ssl_certificate"
  rationale  = "Certificates are immutable: replacement provisions a new one, which can take an hour to become active."
  holds_data = false
  identity   = ["id", "self_link", "certificate_id"]
}

resource "google_compute_security_policy" {
  summary    = "A Cloud Armor security policy."
  source     = "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/compute_security_policy"
  rationale  = "Rules change in place and allow or block matching requests at once."
  holds_data = false
  identity   = ["id", "self_link", "fingerprint"]
  free       = ["description"]
}

# ---------------------------------------------------------------- GKE

resource "google_container_cluster" {
  summary    = "A GKE Kubernetes cluster."
  source     = "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/container_cluster"
  rationale  = "Version changes upgrade the control plane (a zonal cluster's API is unavailable during it); replacement or deletion loses every Kubernetes object in the cluster."
  holds_data = true
  identity   = ["id", "self_link", "endpoint", "master_auth", "label_fingerprint"]
  free       = ["resource_labels", "terraform_labels", "effective_labels", "deletion_protection", "description"]

  attribute "min_master_version" {
    impact = "interrupt"
    why    = "The control plane is upgraded in place; for zonal clusters the Kubernetes API is unavailable while it runs."
  }
  attribute "node_version" {
    impact = "interrupt"
    why    = "Nodes of the default pool are upgraded by draining and recreating them."
  }
}

resource "google_container_node_pool" {
  summary    = "A GKE node pool."
  source     = "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/container_node_pool"
  rationale  = "Version and node configuration changes recreate the nodes in a surge upgrade (pods are evicted); size and autoscaling change in place."
  holds_data = false
  identity   = ["id", "instance_group_urls", "managed_instance_group_urls"]

  attribute "version" {
    impact = "interrupt"
    why    = "Nodes are upgraded by draining and recreating them (surge upgrade)."
  }
  attribute "node_config" {
    impact = "interrupt"
    why    = "Node configuration changes that GKE applies in place recreate the nodes, draining their pods."
  }
  attribute "node_count" {
    impact = "in-place"
    why    = "Nodes are added, or drained and removed."
  }
  attribute "autoscaling" {
    impact = "in-place"
    why    = "Autoscaler bounds change; the pool may then scale."
  }
}

# ---------------------------------------------------------------- data stores

resource "google_sql_database_instance" {
  summary    = "A Cloud SQL instance."
  source     = "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/sql_database_instance"
  rationale  = "Tier, version and many flag changes restart the instance; replacement or deletion loses the databases (deletion_protection guards it)."
  holds_data = true
  identity   = ["id", "self_link", "connection_name", "ip_address", "private_ip_address", "public_ip_address", "first_ip_address", "dns_name"]
  free       = ["settings.user_labels", "deletion_protection"]

  attribute "settings.tier" {
    impact = "interrupt"
    why    = "Changing the machine tier restarts the instance (minutes of downtime)."
  }
  attribute "database_version" {
    impact = "interrupt"
    why    = "An in-place major version upgrade takes the instance offline while it runs."
  }
  attribute "settings.database_flags" {
    impact = "interrupt"
    why    = "Many flags restart the instance when set or changed."
  }
  attribute "settings.disk_size" {
    impact = "in-place"
    why    = "Storage grows online; it cannot shrink."
  }
}

resource "google_sql_database" {
  summary    = "A database in a Cloud SQL instance."
  source     = "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/sql_database"
  rationale  = "The database holds data: deleting or replacing it drops it (deletion_policy ABANDON keeps it)."
  holds_data = true
  identity   = ["id", "self_link"]
}

resource "google_sql_user" {
  summary    = "A Cloud SQL database user."
  source     = "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/sql_user"
  rationale  = "Password changes apply in place; clients using the old password fail."
  holds_data = false
  identity   = ["id"]
}

resource "google_redis_instance" {
  summary    = "A Memorystore for Redis instance."
  source     = "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/redis_instance"
  rationale  = "Scaling or upgrading a Basic tier instance flushes its data with downtime; a Standard tier fails over. Replacement loses the data."
  holds_data = true
  identity   = ["id", "host", "port", "current_location_id", "read_endpoint"]
  free       = ["labels", "terraform_labels", "effective_labels", "display_name"]

  attribute "memory_size_gb" {
    impact = "interrupt"
    why    = "Scaling a Basic tier instance flushes the cache and is unavailable while it runs; Standard tier fails over."
  }
  attribute "redis_version" {
    impact = "interrupt"
    why    = "A version upgrade restarts (Basic: flushes) or fails over (Standard) the instance."
  }
}

resource "google_storage_bucket" {
  summary    = "A Cloud Storage bucket."
  source     = "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/storage_bucket"
  rationale  = "The bucket holds objects: deleting it (when empty, or with force_destroy) loses them; lifecycle rules can delete objects."
  holds_data = true
  identity   = ["id", "self_link", "url", "name"]
  free       = ["labels", "terraform_labels", "effective_labels", "force_destroy"]

  attribute "lifecycle_rule" {
    impact = "in-place"
    why    = "Rules change in place; a new or shorter Delete rule removes matching objects asynchronously."
  }
}

resource "google_storage_bucket_object" {
  summary    = "An object in a Cloud Storage bucket."
  source     = "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/storage_bucket_object"
  rationale  = "The object is data: replacing or deleting it overwrites or removes the stored content."
  holds_data = true
  identity   = ["id", "self_link", "media_link", "md5hash", "crc32c", "generation"]
}

resource "google_storage_bucket_iam_member" {
  summary    = "One IAM member of a bucket role (non-authoritative)."
  source     = "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/storage_bucket_iam"
  rationale  = "Deleting or replacing it removes that member's access to the bucket."
  holds_data = false
  identity   = ["id", "etag"]
}

resource "google_storage_bucket_iam_binding" {
  summary    = "The members of one bucket role (authoritative for that role)."
  source     = "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/storage_bucket_iam"
  rationale  = "Member changes apply in place and remove any member of that role not listed."
  holds_data = false
  identity   = ["id", "etag"]
}

resource "google_bigquery_dataset" {
  summary    = "A BigQuery dataset."
  source     = "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/bigquery_dataset"
  rationale  = "The dataset holds tables: deleting it (with delete_contents_on_destroy) or replacing it loses them."
  holds_data = true
  identity   = ["id", "self_link", "etag"]
  free       = ["labels", "terraform_labels", "effective_labels", "description", "friendly_name"]
}

resource "google_bigquery_table" {
  summary    = "A BigQuery table or view."
  source     = "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/bigquery_table"
  rationale  = "The table holds rows: replacement (e.g. an incompatible schema change) or deletion loses them; deletion_protection guards it."
  holds_data = true
  identity   = ["id", "self_link", "etag"]
  free       = ["labels", "terraform_labels", "effective_labels", "description", "friendly_name", "deletion_protection"]
}

resource "google_pubsub_topic" {
  summary    = "A Pub/Sub topic."
  source     = "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/pubsub_topic"
  rationale  = "Settings change in place; deleting the topic detaches its subscriptions and publishers fail."
  holds_data = false
  identity   = ["id"]
  free       = ["labels", "terraform_labels", "effective_labels"]
}

resource "google_pubsub_subscription" {
  summary    = "A Pub/Sub subscription."
  source     = "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/pubsub_subscription"
  rationale  = "The subscription holds unacknowledged messages: replacement or deletion loses them."
  holds_data = true
  identity   = ["id"]
  free       = ["labels", "terraform_labels", "effective_labels"]
}

resource "google_artifact_registry_repository" {
  summary    = "An Artifact Registry repository."
  source     = "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/artifact_registry_repository"
  rationale  = "The repository holds packages and images: replacement or deletion loses them; cleanup policies can delete versions."
  holds_data = true
  identity   = ["id", "name"]
  free       = ["labels", "terraform_labels", "effective_labels", "description"]
}

resource "google_secret_manager_secret" {
  summary    = "A Secret Manager secret."
  source     = "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/secret_manager_secret"
  rationale  = "Deleting or replacing the secret destroys every version it holds."
  holds_data = true
  identity   = ["id", "name"]
  free       = ["labels", "terraform_labels", "effective_labels"]
}

resource "google_secret_manager_secret_version" {
  summary    = "A version of a Secret Manager secret."
  source     = "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/secret_manager_secret_version"
  rationale  = "A changed value creates a new version; readers of `latest` see it at once."
  holds_data = false
  identity   = ["id", "name", "version"]
}

resource "google_kms_crypto_key" {
  summary    = "A Cloud KMS crypto key."
  source     = "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/kms_crypto_key"
  rationale  = "Destroying it schedules destruction of every key version: data encrypted with them becomes unrecoverable."
  holds_data = true
  identity   = ["id"]
  free       = ["labels", "terraform_labels", "effective_labels"]
}

resource "google_kms_key_ring" {
  summary    = "A Cloud KMS key ring."
  source     = "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/kms_key_ring"
  rationale  = "Key rings cannot be deleted: destroy only removes it from state; any change replaces it with a new ring."
  holds_data = false
  identity   = ["id"]
}

# ---------------------------------------------------------------- IAM and projects

resource "google_project" {
  summary    = "A Google Cloud project."
  source     = "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/google_project"
  rationale  = "Deleting the project shuts down and, after 30 days, deletes everything in it."
  holds_data = true
  identity   = ["id", "project_id", "number"]
  free       = ["labels", "terraform_labels", "effective_labels", "name"]
}

resource "google_project_service" {
  summary    = "An enabled API of a project."
  source     = "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/google_project_service"
  rationale  = "Deleting it disables the API (when disable_on_destroy is true), which breaks everything in the project that uses it."
  holds_data = false
  identity   = ["id"]
  free       = ["disable_on_destroy", "disable_dependent_services"]
}

resource "google_project_iam_member" {
  summary    = "One IAM member of a project role (non-authoritative)."
  source     = "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/google_project_iam"
  rationale  = "Deleting or replacing it removes that member's role in the project."
  holds_data = false
  identity   = ["id", "etag"]
}

resource "google_project_iam_binding" {
  summary    = "The members of one project role (authoritative for that role)."
  source     = "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/google_project_iam"
  rationale  = "Member changes apply in place and remove any member of that role not listed."
  holds_data = false
  identity   = ["id", "etag"]
}

resource "google_service_account" {
  summary    = "An IAM service account."
  source     = "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/google_service_account"
  rationale  = "Replacement creates a new account with a new unique id: its keys and role grants to the old one stop working."
  holds_data = false
  identity   = ["id", "email", "unique_id", "member", "name"]
  free       = ["display_name", "description"]
}

resource "google_service_account_key" {
  summary    = "A service account key."
  source     = "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/google_service_account_key"
  rationale  = "Replacement creates a new key and deletes the old one: every client using the old key fails."
  holds_data = false
  identity   = ["id", "name", "private_key", "public_key"]
}

resource "google_service_account_iam_member" {
  summary    = "One IAM member of a role on a service account."
  source     = "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/google_service_account_iam"
  rationale  = "Deleting or replacing it removes that member's role (e.g. workload identity impersonation)."
  holds_data = false
  identity   = ["id", "etag"]
}

# ---------------------------------------------------------------- serverless, DNS, operations

resource "google_cloud_run_v2_service" {
  summary    = "A Cloud Run service."
  source     = "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/cloud_run_v2_service"
  rationale  = "Template changes deploy a new revision in place and shift traffic as configured; replacement gives a new URL."
  holds_data = false
  identity   = ["id", "uri", "uid"]
  free       = ["labels", "terraform_labels", "effective_labels", "description", "deletion_protection"]
}

resource "google_cloud_run_service" {
  summary    = "A Cloud Run service (v1 API)."
  source     = "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/cloud_run_service"
  rationale  = "Template changes deploy a new revision in place and shift traffic as configured; replacement gives a new URL."
  holds_data = false
  identity   = ["id", "status"]
}

resource "google_cloudfunctions2_function" {
  summary    = "A Cloud Functions (2nd gen) function."
  source     = "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/cloudfunctions2_function"
  rationale  = "Code and configuration changes deploy in place; new requests reach the new version."
  holds_data = false
  identity   = ["id", "url"]
  free       = ["labels", "terraform_labels", "effective_labels", "description"]
}

resource "google_dns_managed_zone" {
  summary    = "A Cloud DNS managed zone."
  source     = "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/dns_managed_zone"
  rationale  = "The zone holds its records: replacement gives new name servers (the parent delegation must change) and deletion (with force_destroy) loses the records."
  holds_data = true
  identity   = ["id", "name_servers", "managed_zone_id"]
  free       = ["labels", "terraform_labels", "effective_labels", "description", "force_destroy"]
}

resource "google_dns_record_set" {
  summary    = "A Cloud DNS record set."
  source     = "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/dns_record_set"
  rationale  = "Record data and TTL change in place; resolvers see the change after the old TTL expires. Deleting it makes the name stop resolving."
  holds_data = false
  identity   = ["id"]
}

resource "google_logging_project_sink" {
  summary    = "A Cloud Logging project sink."
  source     = "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/logging_project_sink"
  rationale  = "Filter and destination change in place; replacement gives a new writer identity that must be granted access again."
  holds_data = false
  identity   = ["id", "writer_identity"]
  free       = ["description"]
}

resource "google_monitoring_alert_policy" {
  summary    = "A Cloud Monitoring alert policy."
  source     = "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/monitoring_alert_policy"
  rationale  = "Conditions change in place; deleting the policy stops its alerts."
  holds_data = false
  identity   = ["id", "name"]
  free       = ["user_labels"]
}

# ---------------------------------------------------------------- more data stores, edge and operations

resource "google_compute_region_disk" {
  summary    = "A regional (replicated) persistent disk."
  source     = "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/compute_region_disk"
  rationale  = "The disk holds data: replacement or deletion loses it. It can only grow, online."
  holds_data = true
  identity   = ["id", "self_link"]
  free       = ["labels", "terraform_labels", "effective_labels"]

  attribute "size" {
    impact = "in-place"
    why    = "The disk grows online; the file system must still be grown inside the guest."
  }
}

resource "google_compute_resource_policy" {
  summary    = "A Compute Engine resource policy (snapshot schedule, placement, instance schedule)."
  source     = "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/compute_resource_policy"
  rationale  = "Policies are immutable: changes replace it; disks and VMs using it must be detached first."
  holds_data = false
  identity   = ["id", "self_link"]
}

resource "google_compute_region_backend_service" {
  summary    = "A regional backend service."
  source     = "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/compute_region_backend_service"
  rationale  = "Backends, health checks and policies change in place and re-route traffic at once."
  holds_data = false
  identity   = ["id", "self_link", "fingerprint"]
  free       = ["description"]
}

resource "google_compute_target_http_proxy" {
  summary    = "A target HTTP proxy."
  source     = "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/compute_target_http_proxy"
  rationale  = "The URL map changes in place; replacement requires detaching it from its forwarding rule."
  holds_data = false
  identity   = ["id", "self_link", "proxy_id"]
  free       = ["description"]
}

resource "google_compute_ssl_policy" {
  summary    = "An SSL policy for HTTPS and SSL proxy load balancers."
  source     = "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/compute_ssl_policy"
  rationale  = "Profile and minimum TLS version change in place and apply to new connections at once."
  holds_data = false
  identity   = ["id", "self_link", "fingerprint"]
  free       = ["description"]
}

resource "google_filestore_instance" {
  summary    = "A Filestore NFS instance."
  source     = "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/filestore_instance"
  rationale  = "The share holds files: replacement or deletion loses them. Capacity grows online."
  holds_data = true
  identity   = ["id", "networks.ip_addresses"]
  free       = ["labels", "terraform_labels", "effective_labels", "description"]
}

resource "google_memcache_instance" {
  summary    = "A Memorystore for Memcached instance."
  source     = "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/memcache_instance"
  rationale  = "Node count and parameter changes apply in place (parameters after a node restart); the cache's contents are lost on replacement."
  holds_data = true
  identity   = ["id", "discovery_endpoint", "memcache_nodes"]
  free       = ["labels", "terraform_labels", "effective_labels", "display_name"]
}

resource "google_spanner_instance" {
  summary    = "A Cloud Spanner instance."
  source     = "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/spanner_instance"
  rationale  = "Compute capacity changes apply online; deleting the instance deletes every database in it."
  holds_data = true
  identity   = ["id"]
  free       = ["labels", "terraform_labels", "effective_labels", "display_name"]
}

resource "google_spanner_database" {
  summary    = "A Cloud Spanner database."
  source     = "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/spanner_database"
  rationale  = "The database holds data: deletion (unless deletion_protection) or replacement loses it; DDL changes run online."
  holds_data = true
  identity   = ["id"]
  free       = ["deletion_protection"]
}

resource "google_bigtable_instance" {
  summary    = "A Cloud Bigtable instance."
  source     = "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/bigtable_instance"
  rationale  = "Cluster node counts change online; deleting the instance deletes every table in it."
  holds_data = true
  identity   = ["id"]
  free       = ["labels", "terraform_labels", "effective_labels", "display_name", "deletion_protection"]
}

resource "google_bigtable_table" {
  summary    = "A Cloud Bigtable table."
  source     = "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/bigtable_table"
  rationale  = "The table holds data: replacement or deletion loses it."
  holds_data = true
  identity   = ["id"]
  free       = ["deletion_protection"]
}

resource "google_alloydb_cluster" {
  summary    = "An AlloyDB cluster."
  source     = "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/alloydb_cluster"
  rationale  = "The cluster holds the databases: replacement or deletion loses them."
  holds_data = true
  identity   = ["id", "name", "uid"]
  free       = ["labels", "terraform_labels", "effective_labels", "display_name"]
}

resource "google_alloydb_instance" {
  summary    = "An AlloyDB instance (primary or read pool)."
  source     = "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/alloydb_instance"
  rationale  = "Machine changes restart the instance (for the primary, the database is unavailable meanwhile); data lives in the cluster."
  holds_data = false
  identity   = ["id", "ip_address", "uid"]
  free       = ["labels", "terraform_labels", "effective_labels", "display_name"]

  attribute "machine_config" {
    impact = "interrupt"
    why    = "Changing the machine shape restarts the instance."
  }
}

resource "google_firestore_database" {
  summary    = "A Firestore database."
  source     = "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/firestore_database"
  rationale  = "The database holds documents: deletion (when delete_protection_state allows it) loses them."
  holds_data = true
  identity   = ["id", "uid"]
}

resource "google_cloud_scheduler_job" {
  summary    = "A Cloud Scheduler job."
  source     = "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/cloud_scheduler_job"
  rationale  = "Schedule and target change in place and apply from the next run."
  holds_data = false
  identity   = ["id"]
  free       = ["description"]
}

resource "google_cloudbuild_trigger" {
  summary    = "A Cloud Build trigger."
  source     = "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/cloudbuild_trigger"
  rationale  = "Changes apply in place to later builds; running builds are not affected."
  holds_data = false
  identity   = ["id", "trigger_id"]
  free       = ["description"]
}

resource "google_project_iam_custom_role" {
  summary    = "A project-level custom IAM role."
  source     = "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/google_project_iam_custom_role"
  rationale  = "Permission changes apply at once to every member granted the role; deleting it revokes them (it stays undeletable for 7 days)."
  holds_data = false
  identity   = ["id", "name"]
  free       = ["title", "description"]
}

resource "google_storage_bucket_iam_policy" {
  summary    = "The IAM policy of a bucket (authoritative)."
  source     = "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/storage_bucket_iam"
  rationale  = "Replaces the whole bucket policy at once: members not listed lose access."
  holds_data = false
  identity   = ["id", "etag"]
}

resource "google_project_iam_policy" {
  summary    = "The IAM policy of a project (authoritative)."
  source     = "https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources/google_project_iam"
  rationale  = "Replaces the whole project policy at once: any member not listed loses access, which can lock everyone out."
  holds_data = false
  identity   = ["id", "etag"]
}

