# ward built-in pack: hashicorp/aws.
#
# What a change to an AWS resource costs, beyond what the plan says. Replacement is taken from
# the plan (the provider marks ForceNew attributes); this pack adds what the plan does not say:
# which in-place updates stop, reboot or fail over, which objects hold data, what is identity.
#
# Schema: checked by crates/ward-rules/tests/selfcheck.rs against crates/ward-rules/schemas/aws.json
# (extracted from the CDK for Terraform package @cdktf/provider-aws 21.22.1, generated from the
# provider's `providers schema -json`; see scripts/extract-schemas) and, when WARD_CORPUS is set,
# the aws schemas in the corpus.

pack {
  name     = "aws"
  version  = "2026.11.2"
  provider = "hashicorp/aws"
  schema   = "checked"
}

# ---------------------------------------------------------------- compute and EBS

resource "aws_instance" {
  summary    = "An EC2 virtual machine."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/instance"
  rationale  = "Instance type and user data changes stop and start the instance; an AMI or subnet change replaces it, and replacement deletes the root volume (delete_on_termination defaults to true) and any instance store."
  holds_data = true
  identity   = ["id", "arn", "private_ip", "public_ip", "private_dns", "public_dns", "primary_network_interface_id", "ipv6_addresses"]
  free       = ["tags", "tags_all", "volume_tags", "user_data_replace_on_change", "disable_api_termination", "disable_api_stop"]

  attribute "instance_type" {
    impact = "interrupt"
    why    = "The provider stops the instance, changes its type and starts it again."
  }
  attribute "user_data" {
    impact = "interrupt"
    why    = "The provider stops and starts the instance to change user data (replaced instead when user_data_replace_on_change is true)."
  }
  attribute "user_data_base64" {
    impact = "interrupt"
    why    = "The provider stops and starts the instance to change user data (replaced instead when user_data_replace_on_change is true)."
  }
  attribute "ami" {
    impact = "replace"
    why    = "A new AMI means a new instance: new id and private IP, root volume recreated."
  }
  attribute "root_block_device.volume_size" {
    impact = "in-place"
    why    = "The root EBS volume is modified online; the file system must still be grown inside the guest."
  }
}

resource "aws_launch_template" {
  summary    = "An EC2 launch template."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/launch_template"
  rationale  = "Changes publish a new template version; running instances are untouched until an Auto Scaling group or instance launches from it."
  holds_data = false
  identity   = ["id", "arn"]
  free       = ["tags", "tags_all", "description"]
}

resource "aws_autoscaling_group" {
  summary    = "An EC2 Auto Scaling group."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/autoscaling_group"
  rationale  = "Size and template changes apply in place; instances are replaced only by scaling or an instance refresh. Deleting the group terminates its instances."
  holds_data = false
  identity   = ["id", "arn", "name"]
  free       = ["tag"]

  attribute "instance_refresh" {
    impact = "interrupt"
    why    = "With an instance_refresh block, a launch template change replaces running instances in a rolling refresh."
  }
}

resource "aws_ebs_volume" {
  summary    = "An EBS block storage volume."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/ebs_volume"
  rationale  = "The volume holds data: destroying or replacing it loses it. Size, type, IOPS and throughput are modified online."
  holds_data = true
  identity   = ["id", "arn"]
  free       = ["tags", "tags_all"]

  attribute "size" {
    impact = "in-place"
    why    = "Elastic Volumes grows the volume online; the file system must still be grown inside the guest."
  }
}

resource "aws_volume_attachment" {
  summary    = "The attachment of an EBS volume to an instance."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/volume_attachment"
  rationale  = "Deleting or replacing it detaches the volume from the running instance; the volume and its data remain."
  holds_data = false
  identity   = ["id"]
}

resource "aws_ebs_snapshot" {
  summary    = "A point-in-time snapshot of an EBS volume."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/ebs_snapshot"
  rationale  = "A snapshot is a copy of data: deleting it removes that restore point."
  holds_data = true
  identity   = ["id", "arn"]
  free       = ["tags", "tags_all", "description"]
}

resource "aws_key_pair" {
  summary    = "An EC2 key pair (public key)."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/key_pair"
  rationale  = "Running instances keep the key they launched with; replacement only affects new launches."
  holds_data = false
  identity   = ["id", "arn", "key_pair_id", "fingerprint"]
  free       = ["tags", "tags_all"]
}

resource "aws_eip" {
  summary    = "An Elastic IP address."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/eip"
  rationale  = "Replacement releases the address: the new one has a different public IP, which breaks DNS records and allow-lists that name it."
  holds_data = false
  identity   = ["id", "allocation_id", "public_ip", "public_dns", "private_ip"]
  free       = ["tags", "tags_all"]

  attribute "instance" {
    impact = "interrupt"
    why    = "Moving the address re-associates it: traffic to the IP stops reaching the old target."
  }
  attribute "network_interface" {
    impact = "interrupt"
    why    = "Moving the address re-associates it: traffic to the IP stops reaching the old target."
  }
}

resource "aws_eip_association" {
  summary    = "The association of an Elastic IP with an instance or network interface."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/eip_association"
  rationale  = "Deleting or replacing it disassociates the public IP: traffic to that address stops until it is re-associated."
  holds_data = false
  identity   = ["id"]
}

resource "aws_network_interface" {
  summary    = "An elastic network interface."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/network_interface"
  rationale  = "Replacement gives a new MAC address and private IPs (unless set explicitly)."
  holds_data = false
  identity   = ["id", "arn", "mac_address", "private_ip", "private_ips", "private_dns_name"]
  free       = ["tags", "tags_all", "description"]
}

# ---------------------------------------------------------------- VPC and networking

resource "aws_vpc" {
  summary    = "A virtual private cloud."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/vpc"
  rationale  = "Replacing a VPC (e.g. a new cidr_block) means replacing everything in it."
  holds_data = false
  identity   = ["id", "arn", "cidr_block", "default_security_group_id", "main_route_table_id"]
  free       = ["tags", "tags_all"]
}

resource "aws_subnet" {
  summary    = "A VPC subnet."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/subnet"
  rationale  = "Replacement requires everything in the subnet to be removed first; new subnet id."
  holds_data = false
  identity   = ["id", "arn", "cidr_block"]
  free       = ["tags", "tags_all"]
}

resource "aws_security_group" {
  summary    = "A VPC security group."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/security_group"
  rationale  = "Inline rule changes revoke and re-authorize rules in place; the name and description force replacement (which must detach it from every interface first)."
  holds_data = false
  identity   = ["id", "arn"]
  free       = ["tags", "tags_all"]

  attribute "ingress" {
    impact = "in-place"
    why    = "Rules are revoked and authorized in place; changed rules may briefly drop matching traffic."
  }
  attribute "egress" {
    impact = "in-place"
    why    = "Rules are revoked and authorized in place; changed rules may briefly drop matching traffic."
  }
}

resource "aws_security_group_rule" {
  summary    = "One rule of a security group."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/security_group_rule"
  rationale  = "Any change replaces the rule: it is revoked, then authorized again, and matching traffic is dropped in between."
  holds_data = false
  identity   = ["id", "security_group_rule_id"]
}

resource "aws_vpc_security_group_ingress_rule" {
  summary    = "One ingress rule of a security group."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/vpc_security_group_ingress_rule"
  rationale  = "Rule changes apply in place; deleting the rule stops the traffic it allowed."
  holds_data = false
  identity   = ["id", "arn", "security_group_rule_id"]
  free       = ["tags", "tags_all", "description"]
}

resource "aws_vpc_security_group_egress_rule" {
  summary    = "One egress rule of a security group."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/vpc_security_group_egress_rule"
  rationale  = "Rule changes apply in place; deleting the rule stops the traffic it allowed."
  holds_data = false
  identity   = ["id", "arn", "security_group_rule_id"]
  free       = ["tags", "tags_all", "description"]
}

resource "aws_route_table" {
  summary    = "A VPC route table."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/route_table"
  rationale  = "Inline route changes apply in place; a changed route redirects traffic immediately."
  holds_data = false
  identity   = ["id", "arn"]
  free       = ["tags", "tags_all"]
}

resource "aws_route" {
  summary    = "One route in a route table."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/route"
  rationale  = "Changing the target re-points traffic in place; replacing or deleting the route drops traffic for that destination until it exists again."
  holds_data = false
  identity   = ["id"]
}

resource "aws_route_table_association" {
  summary    = "The association of a subnet or gateway with a route table."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/route_table_association"
  rationale  = "Changing the route table re-associates in place; deleting it falls back to the main route table."
  holds_data = false
  identity   = ["id"]
}

resource "aws_internet_gateway" {
  summary    = "A VPC internet gateway."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/internet_gateway"
  rationale  = "Deleting or replacing it cuts the VPC's internet access until the new gateway and its routes exist."
  holds_data = false
  identity   = ["id", "arn"]
  free       = ["tags", "tags_all"]
}

resource "aws_nat_gateway" {
  summary    = "A VPC NAT gateway."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/nat_gateway"
  rationale  = "Replacement cuts outbound traffic from private subnets and, without a fixed Elastic IP, changes the egress address."
  holds_data = false
  identity   = ["id", "public_ip", "private_ip", "network_interface_id"]
  free       = ["tags", "tags_all"]
}

resource "aws_vpc_endpoint" {
  summary    = "A VPC endpoint (gateway or interface)."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/vpc_endpoint"
  rationale  = "Policy, route table, subnet and security group changes apply in place; replacement gives new endpoint DNS names."
  holds_data = false
  identity   = ["id", "arn", "dns_entry", "network_interface_ids"]
  free       = ["tags", "tags_all"]
}

resource "aws_network_acl" {
  summary    = "A VPC network ACL."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/network_acl"
  rationale  = "Inline rule changes apply in place and take effect at once for every associated subnet."
  holds_data = false
  identity   = ["id", "arn"]
  free       = ["tags", "tags_all"]
}

resource "aws_network_acl_rule" {
  summary    = "One rule of a network ACL."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/network_acl_rule"
  rationale  = "Any change replaces the rule; traffic it allowed is denied in between."
  holds_data = false
  identity   = ["id"]
}

resource "aws_vpc_peering_connection" {
  summary    = "A VPC peering connection."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/vpc_peering_connection"
  rationale  = "Replacement tears down the peering: traffic between the VPCs stops until the new one is accepted and routed."
  holds_data = false
  identity   = ["id"]
  free       = ["tags", "tags_all"]
}

resource "aws_flow_log" {
  summary    = "A VPC flow log."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/flow_log"
  rationale  = "Configuration only; delivered logs stay in their destination."
  holds_data = false
  identity   = ["id", "arn"]
  free       = ["tags", "tags_all"]
}

# ---------------------------------------------------------------- load balancing

resource "aws_lb" {
  summary    = "An Application, Network or Gateway Load Balancer."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/lb"
  rationale  = "Settings change in place; replacement gives a new DNS name, which breaks CNAMEs and clients that name the old one."
  holds_data = false
  identity   = ["id", "arn", "arn_suffix", "dns_name", "zone_id"]
  free       = ["tags", "tags_all"]
}

resource "aws_alb" {
  summary    = "An Application Load Balancer (alias of aws_lb)."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/lb"
  rationale  = "Settings change in place; replacement gives a new DNS name, which breaks CNAMEs and clients that name the old one."
  holds_data = false
  identity   = ["id", "arn", "arn_suffix", "dns_name", "zone_id"]
  free       = ["tags", "tags_all"]
}

resource "aws_lb_listener" {
  summary    = "A load balancer listener."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/lb_listener"
  rationale  = "Port, protocol, certificate and action changes apply in place; deleting it stops traffic on that port."
  holds_data = false
  identity   = ["id", "arn"]
  free       = ["tags", "tags_all"]
}

resource "aws_lb_listener_rule" {
  summary    = "A load balancer listener rule."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/lb_listener_rule"
  rationale  = "Conditions and actions change in place and re-route matching requests immediately."
  holds_data = false
  identity   = ["id", "arn"]
  free       = ["tags", "tags_all"]
}

resource "aws_lb_target_group" {
  summary    = "A load balancer target group."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/lb_target_group"
  rationale  = "Health check and attribute changes apply in place; port, protocol or VPC changes replace it, which must detach it from listeners and re-register targets."
  holds_data = false
  identity   = ["id", "arn", "arn_suffix"]
  free       = ["tags", "tags_all"]
}

resource "aws_lb_target_group_attachment" {
  summary    = "The registration of one target in a target group."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/lb_target_group_attachment"
  rationale  = "Deleting or replacing it deregisters the target: it stops receiving traffic after connection draining."
  holds_data = false
  identity   = ["id"]
}

resource "aws_elb" {
  summary    = "A Classic Load Balancer."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/elb"
  rationale  = "Listener and health check changes apply in place; replacement gives a new DNS name."
  holds_data = false
  identity   = ["id", "arn", "dns_name", "zone_id"]
  free       = ["tags", "tags_all"]
}

# ---------------------------------------------------------------- databases

resource "aws_db_instance" {
  summary    = "An RDS database instance."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/db_instance"
  rationale  = "Class, engine version and some storage changes cause an outage (a reboot, or a Multi-AZ failover), applied at once with apply_immediately = true or else in the next maintenance window; replacement or deletion loses the database unless a final snapshot is taken."
  holds_data = true
  identity   = ["id", "arn", "address", "endpoint", "resource_id", "hosted_zone_id", "identifier"]
  free       = ["tags", "tags_all", "apply_immediately", "allow_major_version_upgrade", "skip_final_snapshot", "final_snapshot_identifier", "delete_automated_backups", "deletion_protection"]

  attribute "instance_class" {
    impact = "interrupt"
    why    = "Changing the class restarts the database (a failover on Multi-AZ); with apply_immediately = false it happens in the next maintenance window."
  }
  attribute "engine_version" {
    impact = "interrupt"
    why    = "An engine upgrade takes the database offline while it runs (major versions need allow_major_version_upgrade); deferred to the maintenance window unless apply_immediately."
  }
  attribute "allocated_storage" {
    impact = "in-place"
    why    = "Storage scaling usually runs online but degrades performance while it optimizes; it cannot be repeated for six hours, and is deferred unless apply_immediately."
  }
  attribute "storage_type" {
    impact = "interrupt"
    why    = "Some storage type changes (e.g. from magnetic) cause an outage; deferred unless apply_immediately."
  }
  attribute "backup_retention_period" {
    impact = "interrupt"
    why    = "Turning automated backups on or off (0 to non-zero and back) causes a brief outage."
  }
  attribute "parameter_group_name" {
    impact = "in-place"
    why    = "The new parameter group is attached in place; static parameters only take effect at the next reboot, which the provider does not do."
  }
  attribute "multi_az" {
    impact = "in-place"
    why    = "Converting to or from Multi-AZ runs without downtime but with degraded performance while the standby syncs."
  }
}

resource "aws_rds_cluster" {
  summary    = "An Aurora (or Multi-AZ DB) cluster."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/rds_cluster"
  rationale  = "The cluster volume holds the data: replacement or deletion loses it unless a final snapshot is taken; engine upgrades take the cluster offline."
  holds_data = true
  identity   = ["id", "arn", "endpoint", "reader_endpoint", "cluster_resource_id", "hosted_zone_id", "cluster_identifier"]
  free       = ["tags", "tags_all", "apply_immediately", "allow_major_version_upgrade", "skip_final_snapshot", "final_snapshot_identifier", "deletion_protection"]

  attribute "engine_version" {
    impact = "interrupt"
    why    = "Upgrading the engine restarts every instance in the cluster; deferred to the maintenance window unless apply_immediately."
  }
  attribute "db_cluster_instance_class" {
    impact = "interrupt"
    why    = "Changing the class of a Multi-AZ DB cluster restarts its instances."
  }
}

resource "aws_rds_cluster_instance" {
  summary    = "An instance of an Aurora cluster."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/rds_cluster_instance"
  rationale  = "Data lives in the cluster volume, not the instance; a class change restarts the instance and, for the writer, fails over."
  holds_data = false
  identity   = ["id", "arn", "endpoint", "dbi_resource_id", "identifier"]
  free       = ["tags", "tags_all"]

  attribute "instance_class" {
    impact = "interrupt"
    why    = "The instance restarts with the new class (a failover when it is the writer); deferred unless apply_immediately."
  }
}

resource "aws_db_subnet_group" {
  summary    = "An RDS DB subnet group."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/db_subnet_group"
  rationale  = "Subnet changes apply in place; it cannot be replaced while a database uses it."
  holds_data = false
  identity   = ["id", "arn", "name"]
  free       = ["tags", "tags_all", "description"]
}

resource "aws_db_parameter_group" {
  summary    = "An RDS DB parameter group."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/db_parameter_group"
  rationale  = "Parameter changes apply in place: dynamic ones at once, static ones at each database's next reboot."
  holds_data = false
  identity   = ["id", "arn", "name"]
  free       = ["tags", "tags_all"]
}

resource "aws_rds_cluster_parameter_group" {
  summary    = "An RDS DB cluster parameter group."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/rds_cluster_parameter_group"
  rationale  = "Parameter changes apply in place: dynamic ones at once, static ones at the next reboot of each instance."
  holds_data = false
  identity   = ["id", "arn", "name"]
  free       = ["tags", "tags_all"]
}

resource "aws_db_option_group" {
  summary    = "An RDS option group."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/db_option_group"
  rationale  = "Option changes apply in place; some options restart the database, deferred unless apply_immediately."
  holds_data = false
  identity   = ["id", "arn", "name"]
  free       = ["tags", "tags_all"]
}

resource "aws_dynamodb_table" {
  summary    = "A DynamoDB table."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/dynamodb_table"
  rationale  = "The table holds data: replacement (e.g. a new hash_key) or deletion loses every item. Capacity, billing mode and index changes apply online."
  holds_data = true
  identity   = ["id", "arn", "name", "stream_arn"]
  free       = ["tags", "tags_all"]
}

resource "aws_elasticache_cluster" {
  summary    = "An ElastiCache cluster (Memcached, or a single Redis/Valkey node)."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/elasticache_cluster"
  rationale  = "Node type and engine version changes restart nodes (cached data may be lost); replacement loses all cached data."
  holds_data = true
  identity   = ["id", "arn", "cache_nodes", "cluster_address", "configuration_endpoint"]
  free       = ["tags", "tags_all"]

  attribute "node_type" {
    impact = "interrupt"
    why    = "Scaling the node type restarts the nodes; deferred to the maintenance window unless apply_immediately."
  }
  attribute "engine_version" {
    impact = "interrupt"
    why    = "An engine upgrade restarts the nodes; deferred to the maintenance window unless apply_immediately."
  }
  attribute "num_cache_nodes" {
    impact = "in-place"
    why    = "Nodes are added or removed; removed Memcached nodes lose their share of the cache."
  }
}

resource "aws_elasticache_replication_group" {
  summary    = "An ElastiCache Redis/Valkey replication group."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/elasticache_replication_group"
  rationale  = "Node type and engine version changes are rolling and fail over the primary; replacement loses the data set."
  holds_data = true
  identity   = ["id", "arn", "primary_endpoint_address", "reader_endpoint_address", "configuration_endpoint_address", "member_clusters"]
  free       = ["tags", "tags_all", "description"]

  attribute "node_type" {
    impact = "interrupt"
    why    = "Scaling replaces nodes one by one and fails over the primary; deferred unless apply_immediately."
  }
  attribute "engine_version" {
    impact = "interrupt"
    why    = "An engine upgrade restarts nodes and fails over the primary; deferred unless apply_immediately."
  }
}

resource "aws_elasticache_subnet_group" {
  summary    = "An ElastiCache subnet group."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/elasticache_subnet_group"
  rationale  = "Subnet changes apply in place; it cannot be replaced while a cache uses it."
  holds_data = false
  identity   = ["id", "arn", "name"]
  free       = ["tags", "tags_all", "description"]
}

resource "aws_elasticache_parameter_group" {
  summary    = "An ElastiCache parameter group."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/elasticache_parameter_group"
  rationale  = "Parameter changes apply in place; some take effect only after the nodes reboot."
  holds_data = false
  identity   = ["id", "arn", "name"]
  free       = ["tags", "tags_all"]
}

resource "aws_elasticsearch_domain" {
  summary    = "An Amazon OpenSearch Service domain (legacy Elasticsearch resource)."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/elasticsearch_domain"
  rationale  = "Cluster, version and storage changes run a blue/green deployment (performance drops while shards move); replacement or deletion loses the indices."
  holds_data = true
  identity   = ["id", "arn", "domain_id", "endpoint"]
  free       = ["tags", "tags_all"]

  attribute "elasticsearch_version" {
    impact = "interrupt"
    why    = "A version upgrade runs a blue/green deployment and restarts the domain's nodes."
  }
  attribute "cluster_config" {
    impact = "in-place"
    why    = "Cluster changes run a blue/green deployment: nodes are replaced and shards migrate while the domain stays up."
  }
}

resource "aws_elasticsearch_domain_policy" {
  summary    = "The access policy of an Elasticsearch domain."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/elasticsearch_domain_policy"
  rationale  = "The policy changes in place and immediately changes who may reach the domain."
  holds_data = false
  identity   = ["id"]
}

resource "aws_opensearch_domain" {
  summary    = "An Amazon OpenSearch Service domain."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/opensearch_domain"
  rationale  = "Cluster, version and storage changes run a blue/green deployment; replacement or deletion loses the indices."
  holds_data = true
  identity   = ["id", "arn", "domain_id", "endpoint"]
  free       = ["tags", "tags_all"]

  attribute "engine_version" {
    impact = "interrupt"
    why    = "A version upgrade runs a blue/green deployment and restarts the domain's nodes."
  }
}

resource "aws_neptune_cluster" {
  summary    = "A Neptune graph database cluster."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/neptune_cluster"
  rationale  = "The cluster volume holds the graph: replacement or deletion loses it unless a final snapshot is taken."
  holds_data = true
  identity   = ["id", "arn", "endpoint", "reader_endpoint", "cluster_resource_id", "hosted_zone_id"]
  free       = ["tags", "tags_all"]

  attribute "engine_version" {
    impact = "interrupt"
    why    = "An engine upgrade restarts the cluster's instances; deferred unless apply_immediately."
  }
}

resource "aws_neptune_cluster_instance" {
  summary    = "An instance of a Neptune cluster."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/neptune_cluster_instance"
  rationale  = "Data lives in the cluster volume; a class change restarts the instance (a failover for the writer)."
  holds_data = false
  identity   = ["id", "arn", "address", "endpoint", "dbi_resource_id"]
  free       = ["tags", "tags_all"]

  attribute "instance_class" {
    impact = "interrupt"
    why    = "The instance restarts with the new class; deferred unless apply_immediately."
  }
}

resource "aws_neptune_cluster_snapshot" {
  summary    = "A manual snapshot of a Neptune cluster."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/neptune_cluster_snapshot"
  rationale  = "A snapshot is a copy of data: deleting it removes that restore point."
  holds_data = true
  identity   = ["id", "db_cluster_snapshot_arn"]
}

# ---------------------------------------------------------------- storage

# S3 buckets and objects. A bucket's settings are split-out resources (aws provider v4+): each is
# changed in place on the bucket, and deleting one removes that setting from the live bucket
# (nothing gets a new identity), so their delete costs say what the running bucket loses:
# `interrupt` when requests or deliveries that work now stop working, `in-place` when only
# protection, cost or later behaviour changes. Replacing one (a new `bucket`) removes the setting
# from the old bucket the same way.

resource "aws_s3_bucket" {
  summary    = "An S3 bucket."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/s3_bucket"
  rationale  = "The bucket holds objects: deleting it (possible when empty, or with force_destroy) loses them; a new name means a new, empty bucket. Its deprecated inline settings cost what the split-out resources cost: an added or shorter lifecycle expiration deletes objects."
  holds_data = true
  identity   = ["id", "arn", "bucket", "bucket_domain_name", "bucket_regional_domain_name", "hosted_zone_id"]
  free       = ["tags", "tags_all"]

  attribute "force_destroy" {
    impact = "free"
    why    = "Only changes what a later destroy may do; nothing in AWS changes."
  }
  attribute "lifecycle_rule.expiration" {
    impact = "data-loss"
    why    = "An added or shorter expiration permanently deletes the objects the rule matches once they reach that age (S3 does it asynchronously); a longer or removed one deletes nothing."
  }
  attribute "lifecycle_rule.expiration.expired_object_delete_marker" {
    impact = "in-place"
    why    = "Removes delete markers that no longer hide any version; no object data is deleted."
  }
  attribute "lifecycle_rule.noncurrent_version_expiration" {
    impact = "data-loss"
    why    = "An added or shorter noncurrent expiration permanently deletes older object versions once they reach that age."
  }
}

resource "aws_s3_directory_bucket" {
  summary    = "An S3 directory bucket (S3 Express One Zone)."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/s3_directory_bucket"
  rationale  = "The bucket holds objects: deleting it (possible when empty, or with force_destroy) or replacing it loses them; directory buckets have no versioning to keep older copies."
  holds_data = true
  identity   = ["id", "arn", "bucket"]
  free       = ["tags", "tags_all", "force_destroy"]
}

resource "aws_s3_object" {
  summary    = "An object in an S3 bucket."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/s3_object"
  rationale  = "The object is data: deleting it, or replacing it (new key or bucket), removes the stored content, and a content change uploads over it in place. The old content survives only as a noncurrent version when the bucket has versioning on. Metadata, storage class and encryption changes re-upload the same content."
  holds_data = true
  identity   = ["id", "etag", "version_id"]
  free       = ["tags", "tags_all", "force_destroy"]

  attribute "content" {
    impact = "in-place"
    why    = "The new content is uploaded over the object: the content comes from the configuration, so the previous version can be uploaded again; only readers that cached it notice (bucket versioning keeps it as a noncurrent version)."
  }
  attribute "content_base64" {
    impact = "in-place"
    why    = "The new content is uploaded over the object: the content comes from the configuration, so the previous version can be uploaded again; only readers that cached it notice (bucket versioning keeps it as a noncurrent version)."
  }
  attribute "source" {
    impact = "in-place"
    why    = "The file is uploaded over the object: the content comes from the configuration, so the previous version can be uploaded again; only readers that cached it notice (bucket versioning keeps it as a noncurrent version)."
  }
  attribute "source_hash" {
    impact = "in-place"
    why    = "A new hash means a changed source file, uploaded over the object: the content comes from the configuration, so the previous version can be uploaded again (bucket versioning also keeps it)."
  }
  attribute "etag" {
    impact = "in-place"
    why    = "A new etag means changed content, uploaded over the object: the content comes from the configuration, so the previous version can be uploaded again (bucket versioning also keeps it)."
  }
}

resource "aws_s3_bucket_object" {
  summary    = "An object in an S3 bucket (deprecated form of aws_s3_object)."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/s3_bucket_object"
  rationale  = "The object is data: deleting it, or replacing it (new key or bucket), removes the stored content, and a content change uploads over it in place. The old content survives only as a noncurrent version when the bucket has versioning on."
  holds_data = true
  identity   = ["id", "etag", "version_id"]
  free       = ["tags", "tags_all", "force_destroy"]

  attribute "content" {
    impact = "in-place"
    why    = "The new content is uploaded over the object: the content comes from the configuration, so the previous version can be uploaded again; only readers that cached it notice (bucket versioning keeps it as a noncurrent version)."
  }
  attribute "content_base64" {
    impact = "in-place"
    why    = "The new content is uploaded over the object: the content comes from the configuration, so the previous version can be uploaded again; only readers that cached it notice (bucket versioning keeps it as a noncurrent version)."
  }
  attribute "source" {
    impact = "in-place"
    why    = "The file is uploaded over the object: the content comes from the configuration, so the previous version can be uploaded again; only readers that cached it notice (bucket versioning keeps it as a noncurrent version)."
  }
  attribute "source_hash" {
    impact = "in-place"
    why    = "A new hash means a changed source file, uploaded over the object: the content comes from the configuration, so the previous version can be uploaded again (bucket versioning also keeps it)."
  }
  attribute "etag" {
    impact = "in-place"
    why    = "A new etag means changed content, uploaded over the object: the content comes from the configuration, so the previous version can be uploaded again (bucket versioning also keeps it)."
  }
}

resource "aws_s3_object_copy" {
  summary    = "An S3 object copied from another object."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/s3_object_copy"
  rationale  = "The copy is data: deleting or replacing it removes the copied content (kept as a noncurrent version only when the bucket has versioning on); the source object is not touched."
  holds_data = true
  identity   = ["id", "etag", "version_id"]
  free       = ["tags", "tags_all", "force_destroy"]
}

resource "aws_s3_bucket_policy" {
  summary    = "An S3 bucket policy."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/s3_bucket_policy"
  rationale  = "The policy changes in place and at once changes who may read or write the bucket. Deleting it removes every statement: requests allowed only by the policy (other accounts, CloudFront origin access, service principals) are refused, and its denials (such as TLS-only) stop applying."
  holds_data = false
  identity   = ["id"]
  on_delete  = "interrupt"
  on_replace = "interrupt"
}

resource "aws_s3_bucket_public_access_block" {
  summary    = "An S3 bucket's Block Public Access settings."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/s3_bucket_public_access_block"
  rationale  = "Changes apply in place and nothing stops. Deleting it (unless skip_destroy is true, which only drops it from the state) turns all four blocks off: any public ACL or public bucket policy then takes effect and can expose the bucket's data to anyone, unless the account-level block (aws_s3_account_public_access_block) still applies."
  holds_data = false
  identity   = ["id"]
  free       = ["skip_destroy"]
  on_delete  = "in-place"
  on_replace = "in-place"

  attribute "block_public_acls" {
    impact = "in-place"
    why    = "Turned off, S3 accepts new public ACLs on the bucket and its objects: they can expose data."
  }
  attribute "ignore_public_acls" {
    impact = "in-place"
    why    = "Turned off, public ACLs already on the bucket and its objects take effect at once: they can expose data."
  }
  attribute "block_public_policy" {
    impact = "in-place"
    why    = "Turned off, a bucket policy granting public access can be set: it can expose data."
  }
  attribute "restrict_public_buckets" {
    impact = "in-place"
    why    = "Turned off, a public bucket policy already in place takes effect at once (anonymous and cross-account access): it can expose data."
  }
}

resource "aws_s3_account_public_access_block" {
  summary    = "Block Public Access settings for every S3 bucket of the account."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/s3_account_public_access_block"
  rationale  = "Changes apply in place to every bucket of the account and nothing stops. Deleting it turns the account-wide blocks off: buckets whose own settings allow it can then be exposed by public ACLs or bucket policies."
  holds_data = false
  identity   = ["id"]
  on_delete  = "in-place"
  on_replace = "in-place"

  attribute "block_public_acls" {
    impact = "in-place"
    why    = "Turned off, S3 accepts new public ACLs in every bucket of the account whose own block allows it: they can expose data."
  }
  attribute "ignore_public_acls" {
    impact = "in-place"
    why    = "Turned off, existing public ACLs take effect at once in every bucket whose own block allows it: they can expose data."
  }
  attribute "block_public_policy" {
    impact = "in-place"
    why    = "Turned off, bucket policies granting public access can be set wherever the bucket's own block allows it: they can expose data."
  }
  attribute "restrict_public_buckets" {
    impact = "in-place"
    why    = "Turned off, public bucket policies already in place take effect at once wherever the bucket's own block allows it: they can expose data."
  }
}

resource "aws_s3_access_point" {
  summary    = "An S3 access point: a named endpoint with its own policy for a bucket."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/s3_access_point"
  rationale  = "Policy and public-access changes apply in place. Deleting or replacing it removes the endpoint: clients using its ARN or alias fail, and a new one gets a new alias. The bucket and its data are not touched."
  holds_data = false
  identity   = ["id", "arn", "alias", "domain_name", "endpoints"]
  free       = ["tags", "tags_all"]
}

resource "aws_s3_bucket_server_side_encryption_configuration" {
  summary    = "An S3 bucket's default encryption."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/s3_bucket_server_side_encryption_configuration"
  rationale  = "Changes apply in place to objects written afterwards; existing objects keep the encryption they were written with. Deleting it returns the bucket to S3's default (SSE-S3) for new objects."
  holds_data = false
  identity   = ["id"]
  on_delete  = "in-place"
  on_replace = "in-place"

  attribute "rule.apply_server_side_encryption_by_default.kms_master_key_id" {
    impact = "in-place"
    why    = "New objects use the new key; existing objects stay encrypted under the old one, which must stay usable for them to be read."
  }
}

resource "aws_s3_bucket_versioning" {
  summary    = "An S3 bucket's versioning state."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/s3_bucket_versioning"
  rationale  = "Changes apply in place. Deleting this resource suspends versioning on a versioned bucket (on a never-versioned one it only leaves the state): every existing version remains, but later overwrites and deletes keep no prior version."
  holds_data = false
  identity   = ["id"]
  free       = ["mfa"]
  on_delete  = "in-place"
  on_replace = "in-place"

  attribute "versioning_configuration.status" {
    impact = "in-place"
    why    = "Suspended: existing versions remain, but later overwrites and deletes keep no prior version. Enabled for the first time: AWS advises waiting 15 minutes before writing, as reads of objects written meanwhile may briefly fail."
  }
  attribute "versioning_configuration.mfa_delete" {
    impact = "in-place"
    why    = "Enabled, permanently deleting a version or changing the versioning state needs the root user's MFA code."
  }
}

resource "aws_s3_bucket_lifecycle_configuration" {
  summary    = "An S3 bucket's lifecycle rules."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/s3_bucket_lifecycle_configuration"
  rationale  = "Rules change in place. Deleting the configuration stops every expiration and transition: the removal deletes nothing (objects already expired are gone) and storage may grow. An added or shorter expiration permanently deletes the objects it matches, asynchronously."
  holds_data = false
  identity   = ["id"]
  on_delete  = "in-place"
  on_replace = "in-place"

  attribute "rule.expiration" {
    impact = "data-loss"
    why    = "An added or shorter expiration permanently deletes the objects the rule matches once they reach that age (S3 does it asynchronously); a longer or removed one deletes nothing."
  }
  attribute "rule.expiration.expired_object_delete_marker" {
    impact = "in-place"
    why    = "Removes delete markers that no longer hide any version; no object data is deleted."
  }
  attribute "rule.noncurrent_version_expiration" {
    impact = "data-loss"
    why    = "An added or shorter noncurrent expiration permanently deletes older object versions once they reach that age or count."
  }
  attribute "rule.status" {
    impact = "in-place"
    why    = "Enabling a rule starts its actions: if it has an expiration, matching objects are deleted."
  }
  attribute "rule.filter" {
    impact = "in-place"
    why    = "A wider filter applies the rule's actions to more objects: if it has an expiration, they are deleted too."
  }
  attribute "rule.transition" {
    impact = "in-place"
    why    = "Objects moved to an archive class (GLACIER, DEEP_ARCHIVE) can no longer be read until restored."
  }
  attribute "rule.noncurrent_version_transition" {
    impact = "in-place"
    why    = "Older versions moved to an archive class can no longer be read until restored."
  }
}

resource "aws_s3_bucket_object_lock_configuration" {
  summary    = "An S3 bucket's Object Lock default retention."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/s3_bucket_object_lock_configuration"
  rationale  = "The default retention changes in place and applies to object versions written afterwards; versions already locked keep their retention. Deleting this resource removes the default retention rule only: Object Lock stays enabled on the bucket (it cannot be turned off), nothing is unlocked, and new versions are no longer locked by default."
  holds_data = false
  identity   = ["id"]
  on_delete  = "in-place"
  on_replace = "in-place"

  attribute "rule.default_retention" {
    impact = "in-place"
    why    = "Applies to versions written afterwards. In COMPLIANCE mode no one, not even the root user, can delete a locked version or shorten its retention until it expires."
  }
}

resource "aws_s3_bucket_acl" {
  summary    = "An S3 bucket ACL."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/s3_bucket_acl"
  rationale  = "The ACL changes in place and at once changes who may access the bucket (ACLs are ignored when ownership controls say BucketOwnerEnforced). Deleting this resource leaves the ACL on the bucket: the provider only removes it from the state."
  holds_data = false
  identity   = ["id"]
  on_delete  = "none"
  on_replace = "in-place"

  attribute "acl" {
    impact = "in-place"
    why    = "A public-read or public-read-write ACL exposes the bucket to anyone unless Block Public Access stops it."
  }
}

resource "aws_s3_bucket_ownership_controls" {
  summary    = "An S3 bucket's object ownership setting."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/s3_bucket_ownership_controls"
  rationale  = "Changes apply in place. BucketOwnerEnforced turns ACLs off, so access granted only by an ACL stops; deleting the setting turns ACLs back on (object writer ownership)."
  holds_data = false
  identity   = ["id"]
  on_delete  = "in-place"
  on_replace = "in-place"

  attribute "rule.object_ownership" {
    impact = "interrupt"
    why    = "BucketOwnerEnforced turns ACLs off: readers and writers allowed only by an ACL (for example another account or an older log delivery setup) are refused."
  }
}

resource "aws_s3_bucket_notification" {
  summary    = "An S3 bucket's event notifications."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/s3_bucket_notification"
  rationale  = "The whole notification configuration is replaced in place: a removed target gets no more events. Deleting it stops every event to Lambda, SQS, SNS and EventBridge: processing driven by new objects stops."
  holds_data = false
  identity   = ["id"]
  on_delete  = "interrupt"
  on_replace = "interrupt"
}

resource "aws_s3_bucket_cors_configuration" {
  summary    = "An S3 bucket's CORS rules."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/s3_bucket_cors_configuration"
  rationale  = "Rules change in place and at once affect browsers calling the bucket. Deleting them makes browsers refuse every cross-origin request to the bucket: web pages served from other origins that read or upload to it fail."
  holds_data = false
  identity   = ["id"]
  on_delete  = "interrupt"
  on_replace = "interrupt"
}

resource "aws_s3_bucket_logging" {
  summary    = "An S3 bucket's server access logging."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/s3_bucket_logging"
  rationale  = "Configuration only: deleting it stops log delivery from then on; logs already delivered stay in the target bucket."
  holds_data = false
  identity   = ["id"]
  on_delete  = "in-place"
  on_replace = "in-place"
}

resource "aws_s3_bucket_website_configuration" {
  summary    = "An S3 bucket's static website hosting."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/s3_bucket_website_configuration"
  rationale  = "Changes apply in place. Deleting it turns website hosting off: the website endpoint stops serving the site (and its redirects), so visitors and a CDN using it as origin get errors. The objects stay."
  holds_data = false
  identity   = ["id", "website_endpoint", "website_domain"]
  on_delete  = "interrupt"
  on_replace = "interrupt"
}

resource "aws_s3_bucket_replication_configuration" {
  summary    = "An S3 bucket's replication rules."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/s3_bucket_replication_configuration"
  rationale  = "Rules change in place. Deleting the configuration stops replication: objects written afterwards are not copied; replicas already made stay in the destination."
  holds_data = false
  identity   = ["id"]
  on_delete  = "in-place"
  on_replace = "in-place"
}

resource "aws_s3_bucket_accelerate_configuration" {
  summary    = "An S3 bucket's Transfer Acceleration setting."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/s3_bucket_accelerate_configuration"
  rationale  = "The setting changes in place. Deleting this resource sets acceleration to Suspended: clients that use the bucket's accelerate endpoint (BUCKET.s3-accelerate.amazonaws.com) get errors until they switch to the regular endpoint. No data is touched."
  holds_data = false
  identity   = ["id"]
  on_delete  = "interrupt"
  on_replace = "interrupt"

  attribute "status" {
    impact = "interrupt"
    why    = "Suspended: requests to the bucket's accelerate endpoint are refused. Enabled: transfers may take up to 30 minutes to speed up."
  }
}

resource "aws_s3_bucket_request_payment_configuration" {
  summary    = "Who pays for requests to an S3 bucket (Requester Pays)."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/s3_bucket_request_payment_configuration"
  rationale  = "The setting changes in place. Deleting this resource sets the payer back to BucketOwner: the owner pays again, nothing breaks."
  holds_data = false
  identity   = ["id"]
  on_delete  = "in-place"
  on_replace = "in-place"

  attribute "payer" {
    impact = "interrupt"
    why    = "Requester: anonymous requests and requests that do not confirm the requester pays (x-amz-request-payer) are refused. BucketOwner: the owner pays again."
  }
}

resource "aws_s3_bucket_analytics_configuration" {
  summary    = "An S3 bucket's storage class analysis."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/s3_bucket_analytics_configuration"
  rationale  = "Reporting only: changes apply in place; deleting it stops the analysis and its exports; reports already exported stay. Objects are not touched."
  holds_data = false
  identity   = ["id"]
  on_delete  = "in-place"
  on_replace = "in-place"
}

resource "aws_s3_bucket_intelligent_tiering_configuration" {
  summary    = "An S3 bucket's Intelligent-Tiering archive configuration."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/s3_bucket_intelligent_tiering_configuration"
  rationale  = "Changes apply in place and only decide where Intelligent-Tiering objects are stored later; deleting it stops moving objects into the archive tiers. No object is deleted."
  holds_data = false
  identity   = ["id"]
  on_delete  = "in-place"
  on_replace = "in-place"

  attribute "tiering" {
    impact = "in-place"
    why    = "Objects not read for the given days move to the Archive or Deep Archive Access tier, where they can no longer be read until restored."
  }
  attribute "status" {
    impact = "in-place"
    why    = "Enabled, unread objects start moving to the archive tiers, where they can no longer be read until restored."
  }
}

resource "aws_s3_bucket_inventory" {
  summary    = "An S3 bucket's inventory report."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/s3_bucket_inventory"
  rationale  = "Reporting only: changes apply in place; deleting it stops the daily or weekly inventory; reports already delivered stay in the destination bucket."
  holds_data = false
  identity   = ["id"]
  on_delete  = "in-place"
  on_replace = "in-place"
}

resource "aws_s3_bucket_metric" {
  summary    = "An S3 bucket's CloudWatch request metrics filter."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/s3_bucket_metric"
  rationale  = "Monitoring only: changes apply in place; deleting it stops publishing those request metrics, so dashboards and alarms on them get no more data."
  holds_data = false
  identity   = ["id"]
  on_delete  = "in-place"
  on_replace = "in-place"
}

resource "aws_s3_bucket_abac" {
  summary    = "Attribute-based access control (tag-based authorization) for an S3 bucket."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/s3_bucket_abac"
  rationale  = "The status changes in place and at once changes how policies that test the bucket's tags (aws:ResourceTag) decide access. Deleting this resource disables ABAC: access those conditions granted can stop, and denials based on them stop applying."
  holds_data = false
  identity   = ["bucket"]
  on_delete  = "interrupt"
  on_replace = "interrupt"

  attribute "abac_status.status" {
    impact = "interrupt"
    why    = "Enabling or disabling changes the outcome of tag-based policy conditions for this bucket: requests allowed now can be refused."
  }
}

resource "aws_s3_bucket_metadata_configuration" {
  summary    = "An S3 bucket's S3 Metadata configuration (journal and inventory tables)."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/s3_bucket_metadata_configuration"
  rationale  = "Changes apply in place. Deleting the configuration deletes no table: the journal and inventory tables stay in the AWS managed table bucket but are no longer updated, and creating a configuration again for the bucket (as a replacement does) fails until those tables are deleted by hand."
  holds_data = false
  identity   = ["bucket"]
  on_delete  = "in-place"
  on_replace = "in-place"

  attribute "metadata_configuration.journal_table_configuration.record_expiration" {
    impact = "data-loss"
    why    = "Enabling record expiration or lowering its days permanently deletes journal records older than that."
  }
}

resource "aws_efs_file_system" {
  summary    = "An EFS file system."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/efs_file_system"
  rationale  = "The file system holds data: replacement or deletion loses it. Throughput and lifecycle changes apply online."
  holds_data = true
  identity   = ["id", "arn", "dns_name"]
  free       = ["tags", "tags_all"]
}

resource "aws_efs_mount_target" {
  summary    = "An EFS mount target in a subnet."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/efs_mount_target"
  rationale  = "Replacement gives a new IP address; clients that mounted through it lose the mount."
  holds_data = false
  identity   = ["id", "ip_address", "network_interface_id", "dns_name", "mount_target_dns_name"]
}

resource "aws_efs_access_point" {
  summary    = "An EFS access point."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/efs_access_point"
  rationale  = "Any settings change replaces it; clients mounting through the old access point id fail. The file data is not touched."
  holds_data = false
  identity   = ["id", "arn"]
  free       = ["tags", "tags_all"]
}

resource "aws_ecr_repository" {
  summary    = "An ECR container image repository."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/ecr_repository"
  rationale  = "The repository holds images: deleting it (with force_delete) or replacing it loses them."
  holds_data = true
  identity   = ["id", "arn", "registry_id", "repository_url"]
  free       = ["tags", "tags_all"]
}

resource "aws_ecr_lifecycle_policy" {
  summary    = "An ECR lifecycle policy."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/ecr_lifecycle_policy"
  rationale  = "The policy changes in place; a stricter policy expires matching images."
  holds_data = false
  identity   = ["id"]
}

# ---------------------------------------------------------------- containers

resource "aws_eks_cluster" {
  summary    = "An EKS Kubernetes control plane."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/eks_cluster"
  rationale  = "A version change upgrades the control plane in place (API servers are rolled); replacement or deletion loses every Kubernetes object stored in the cluster."
  holds_data = true
  identity   = ["id", "arn", "endpoint", "certificate_authority", "identity", "cluster_id"]
  free       = ["tags", "tags_all"]

  attribute "version" {
    impact = "interrupt"
    why    = "The control plane is upgraded in place, rolling its API servers; nodes are not upgraded and must follow."
  }
}

resource "aws_eks_node_group" {
  summary    = "An EKS managed node group."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/eks_node_group"
  rationale  = "Version, AMI release and launch template changes replace the nodes in a rolling update (pods are evicted); scaling changes apply in place."
  holds_data = false
  identity   = ["id", "arn", "resources"]
  free       = ["tags", "tags_all"]

  attribute "version" {
    impact = "interrupt"
    why    = "Nodes are replaced in a rolling update; their pods are drained and rescheduled."
  }
  attribute "release_version" {
    impact = "interrupt"
    why    = "Nodes are replaced in a rolling update; their pods are drained and rescheduled."
  }
  attribute "launch_template" {
    impact = "interrupt"
    why    = "A new launch template version replaces the nodes in a rolling update."
  }
  attribute "scaling_config" {
    impact = "in-place"
    why    = "The Auto Scaling group is resized; scaling down drains and terminates nodes."
  }
}

resource "aws_eks_addon" {
  summary    = "An EKS add-on."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/eks_addon"
  rationale  = "A version or configuration change updates the add-on's workloads in place (they roll)."
  holds_data = false
  identity   = ["id", "arn"]
  free       = ["tags", "tags_all"]
}

resource "aws_ecs_cluster" {
  summary    = "An ECS cluster."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/ecs_cluster"
  rationale  = "Settings change in place; it cannot be deleted while services run in it."
  holds_data = false
  identity   = ["id", "arn", "name"]
  free       = ["tags", "tags_all"]
}

resource "aws_ecs_service" {
  summary    = "An ECS service."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/ecs_service"
  rationale  = "A new task definition starts a rolling deployment in place; deleting or replacing the service stops its tasks."
  holds_data = false
  identity   = ["id", "arn"]
  free       = ["tags", "tags_all"]

  attribute "task_definition" {
    impact = "in-place"
    why    = "A rolling deployment replaces the tasks within the deployment's minimum and maximum healthy percent."
  }
  attribute "desired_count" {
    impact = "in-place"
    why    = "Tasks are started or stopped to reach the new count."
  }
}

resource "aws_ecs_task_definition" {
  summary    = "An ECS task definition revision."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/ecs_task_definition"
  rationale  = "Every change registers a new revision (the plan shows a replacement); the old revision is deregistered, and tasks already running on it keep running."
  holds_data = false
  identity   = ["id", "arn", "arn_without_revision", "revision"]
  free       = ["tags", "tags_all"]
  on_replace = "in-place"
  on_delete  = "in-place"
}

# ---------------------------------------------------------------- identity and access

resource "aws_iam_role" {
  summary    = "An IAM role."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/iam_role"
  rationale  = "Trust policy changes apply in place; replacement gives a new unique id, which breaks policies that named the old role's principal."
  holds_data = false
  identity   = ["id", "arn", "unique_id", "name"]
  free       = ["tags", "tags_all", "description"]
}

resource "aws_iam_policy" {
  summary    = "A customer managed IAM policy."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/iam_policy"
  rationale  = "Document changes publish a new default version in place and change permissions at once."
  holds_data = false
  identity   = ["id", "arn", "policy_id"]
  free       = ["tags", "tags_all"]
}

resource "aws_iam_role_policy" {
  summary    = "An inline policy of an IAM role."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/iam_role_policy"
  rationale  = "The policy changes in place and changes the role's permissions at once."
  holds_data = false
  identity   = ["id"]
}

resource "aws_iam_role_policy_attachment" {
  summary    = "The attachment of a managed policy to a role."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/iam_role_policy_attachment"
  rationale  = "Deleting or replacing it removes the policy's permissions from the role until it is attached again."
  holds_data = false
  identity   = ["id"]
}

resource "aws_iam_user" {
  summary    = "An IAM user."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/iam_user"
  rationale  = "Replacement gives a new unique id; the user's access keys and login profile go with the old user."
  holds_data = false
  identity   = ["id", "arn", "unique_id", "name"]
  free       = ["tags", "tags_all"]
}

resource "aws_iam_user_policy" {
  summary    = "An inline policy of an IAM user."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/iam_user_policy"
  rationale  = "The policy changes in place and changes the user's permissions at once."
  holds_data = false
  identity   = ["id"]
}

resource "aws_iam_user_policy_attachment" {
  summary    = "The attachment of a managed policy to a user."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/iam_user_policy_attachment"
  rationale  = "Deleting or replacing it removes the policy's permissions from the user until it is attached again."
  holds_data = false
  identity   = ["id"]
}

resource "aws_iam_access_key" {
  summary    = "An IAM access key."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/iam_access_key"
  rationale  = "Replacement creates a new key and deletes the old one: every client using the old secret fails until it gets the new one."
  holds_data = false
  identity   = ["id", "secret", "ses_smtp_password_v4"]
}

resource "aws_iam_instance_profile" {
  summary    = "An IAM instance profile."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/iam_instance_profile"
  rationale  = "Changing the role applies in place; instances get new credentials when they refresh them."
  holds_data = false
  identity   = ["id", "arn", "unique_id"]
  free       = ["tags", "tags_all"]
}

resource "aws_iam_group" {
  summary    = "An IAM group."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/iam_group"
  rationale  = "Replacement gives a new unique id; memberships and attachments must be recreated."
  holds_data = false
  identity   = ["id", "arn", "unique_id"]
}

resource "aws_iam_openid_connect_provider" {
  summary    = "An IAM OpenID Connect identity provider."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/iam_openid_connect_provider"
  rationale  = "Client id and thumbprint changes apply in place; deleting it breaks every role that trusts it (e.g. EKS service accounts)."
  holds_data = false
  identity   = ["id", "arn"]
  free       = ["tags", "tags_all"]
}

resource "aws_iam_account_password_policy" {
  summary    = "The account's IAM password policy."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/iam_account_password_policy"
  rationale  = "Changes apply in place to later password changes."
  holds_data = false
  identity   = ["id"]
}

resource "aws_kms_key" {
  summary    = "A KMS key."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/kms_key"
  rationale  = "Deleting the key schedules its deletion (7 to 30 days); after that, everything encrypted with it is unrecoverable."
  holds_data = true
  identity   = ["id", "arn", "key_id"]
  free       = ["tags", "tags_all", "description"]
}

resource "aws_kms_alias" {
  summary    = "An alias for a KMS key."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/kms_alias"
  rationale  = "Re-targeting applies in place; callers using the alias switch keys at once."
  holds_data = false
  identity   = ["id", "arn"]
}

resource "aws_secretsmanager_secret" {
  summary    = "A Secrets Manager secret."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/secretsmanager_secret"
  rationale  = "Deleting the secret schedules deletion of every version after the recovery window (immediately when it is 0)."
  holds_data = true
  identity   = ["id", "arn"]
  free       = ["tags", "tags_all", "description"]
}

resource "aws_secretsmanager_secret_version" {
  summary    = "A version of a Secrets Manager secret's value."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/secretsmanager_secret_version"
  rationale  = "A changed value is stored as a new current version; readers see it at once."
  holds_data = false
  identity   = ["id", "arn", "version_id"]
}

resource "aws_ssm_parameter" {
  summary    = "An SSM Parameter Store parameter."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/ssm_parameter"
  rationale  = "A changed value is stored in place as a new parameter version; readers see it at once."
  holds_data = false
  identity   = ["id", "arn", "version"]
  free       = ["tags", "tags_all", "description"]
}

resource "aws_acm_certificate" {
  summary    = "An ACM certificate."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/acm_certificate"
  rationale  = "Replacement issues a new certificate (new ARN) that must be validated; listeners using the old one must be switched first."
  holds_data = false
  identity   = ["id", "arn"]
  free       = ["tags", "tags_all"]
}

resource "aws_acm_certificate_validation" {
  summary    = "A wait for an ACM certificate's validation."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/acm_certificate_validation"
  rationale  = "A workflow resource: it changes nothing in AWS."
  holds_data = false
  identity   = ["id"]
  on_delete  = "none"
  on_replace = "none"
}

# ---------------------------------------------------------------- DNS and edge

resource "aws_route53_zone" {
  summary    = "A Route 53 hosted zone."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/route53_zone"
  rationale  = "The zone holds its records: replacement gives new name servers (the parent delegation must change) and deletion (with force_destroy) loses every record."
  holds_data = true
  identity   = ["id", "arn", "zone_id", "name_servers"]
  free       = ["tags", "tags_all", "comment"]
}

resource "aws_route53_record" {
  summary    = "A Route 53 DNS record set."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/route53_record"
  rationale  = "Value and TTL changes are upserted in place; resolvers see the change after the old TTL expires. Deleting it makes the name stop resolving."
  holds_data = false
  identity   = ["id", "fqdn"]
}

resource "aws_route53_health_check" {
  summary    = "A Route 53 health check."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/route53_health_check"
  rationale  = "Settings change in place; DNS failover that depends on it re-evaluates."
  holds_data = false
  identity   = ["id", "arn"]
  free       = ["tags", "tags_all"]
}

resource "aws_cloudfront_distribution" {
  summary    = "A CloudFront distribution."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/cloudfront_distribution"
  rationale  = "Changes deploy in place to every edge location (minutes); replacement gives a new domain name."
  holds_data = false
  identity   = ["id", "arn", "domain_name", "hosted_zone_id", "etag"]
  free       = ["tags", "tags_all", "comment"]
}

resource "aws_apprunner_service" {
  summary    = "An App Runner service."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/apprunner_service"
  rationale  = "Source and instance changes start a new deployment in place (traffic moves when it is healthy); replacement gives a new service URL."
  holds_data = false
  identity   = ["id", "arn", "service_id", "service_url"]
  free       = ["tags", "tags_all"]
}

# ---------------------------------------------------------------- serverless and messaging

resource "aws_lambda_function" {
  summary    = "A Lambda function."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/lambda_function"
  rationale  = "Code and configuration change in place; new invocations use them, running ones finish on the old code."
  holds_data = false
  identity   = ["id", "arn", "qualified_arn", "invoke_arn", "version"]
  free       = ["tags", "tags_all", "description"]
}

resource "aws_lambda_permission" {
  summary    = "A permission in a Lambda function's resource policy."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/lambda_permission"
  rationale  = "Any change replaces the statement; the caller it allowed is refused in between."
  holds_data = false
  identity   = ["id"]
}

resource "aws_lambda_event_source_mapping" {
  summary    = "A Lambda event source mapping (queue or stream trigger)."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/lambda_event_source_mapping"
  rationale  = "Batch and filter settings change in place; replacement restarts a stream from starting_position, which can skip or repeat records."
  holds_data = false
  identity   = ["id", "arn", "uuid"]
  free       = ["tags", "tags_all"]
}

resource "aws_lambda_alias" {
  summary    = "A Lambda function alias."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/lambda_alias"
  rationale  = "Re-pointing the alias applies in place; callers switch versions at once."
  holds_data = false
  identity   = ["id", "arn", "invoke_arn"]
  free       = ["description"]
}

resource "aws_sqs_queue" {
  summary    = "An SQS queue."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/sqs_queue"
  rationale  = "The queue holds messages: replacement or deletion loses those not yet consumed; attribute changes apply in place."
  holds_data = true
  identity   = ["id", "arn", "url"]
  free       = ["tags", "tags_all"]
}

resource "aws_sqs_queue_policy" {
  summary    = "An SQS queue policy."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/sqs_queue_policy"
  rationale  = "The policy changes in place and changes who may send or receive at once."
  holds_data = false
  identity   = ["id"]
}

resource "aws_sns_topic" {
  summary    = "An SNS topic."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/sns_topic"
  rationale  = "Attributes change in place; replacement drops every subscription and publishers using the old ARN fail."
  holds_data = false
  identity   = ["id", "arn"]
  free       = ["tags", "tags_all", "display_name"]
}

resource "aws_sns_topic_subscription" {
  summary    = "A subscription to an SNS topic."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/sns_topic_subscription"
  rationale  = "Filter policy and attributes change in place; messages published while it is absent are not delivered to the endpoint."
  holds_data = false
  identity   = ["id", "arn"]
}

resource "aws_sns_topic_policy" {
  summary    = "An SNS topic access policy."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/sns_topic_policy"
  rationale  = "The policy changes in place and changes who may publish or subscribe at once."
  holds_data = false
  identity   = ["id"]
}

resource "aws_kinesis_stream" {
  summary    = "A Kinesis data stream."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/kinesis_stream"
  rationale  = "The stream holds records for its retention period: replacement or deletion loses them. Shard count and retention change in place."
  holds_data = true
  identity   = ["id", "arn"]
  free       = ["tags", "tags_all"]
}

# ---------------------------------------------------------------- monitoring, events, CI

resource "aws_cloudwatch_log_group" {
  summary    = "A CloudWatch Logs log group."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/cloudwatch_log_group"
  rationale  = "The group holds log events: replacement or deletion loses them; shortening retention_in_days deletes older events."
  holds_data = true
  identity   = ["id", "arn"]
  free       = ["tags", "tags_all"]

  attribute "retention_in_days" {
    impact = "in-place"
    why    = "Applied in place; a shorter retention deletes events older than it."
  }
}

resource "aws_cloudwatch_log_metric_filter" {
  summary    = "A CloudWatch Logs metric filter."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/cloudwatch_log_metric_filter"
  rationale  = "The filter changes in place; metrics derived from it change from then on."
  holds_data = false
  identity   = ["id"]
}

resource "aws_cloudwatch_metric_alarm" {
  summary    = "A CloudWatch metric alarm."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/cloudwatch_metric_alarm"
  rationale  = "Settings change in place; the alarm re-evaluates. Deleting it stops alerting and any scaling action it drives."
  holds_data = false
  identity   = ["id", "arn"]
  free       = ["tags", "tags_all", "alarm_description"]
}

resource "aws_cloudwatch_dashboard" {
  summary    = "A CloudWatch dashboard."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/cloudwatch_dashboard"
  rationale  = "A view over metrics: changes touch nothing running."
  holds_data = false
  identity   = ["id", "dashboard_arn"]
  free       = ["dashboard_body"]
}

resource "aws_cloudwatch_event_rule" {
  summary    = "An EventBridge rule."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/cloudwatch_event_rule"
  rationale  = "Pattern and schedule change in place; events that arrive while it is absent are not routed."
  holds_data = false
  identity   = ["id", "arn"]
  free       = ["tags", "tags_all", "description"]
}

resource "aws_cloudwatch_event_target" {
  summary    = "A target of an EventBridge rule."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/cloudwatch_event_target"
  rationale  = "Target settings change in place; events are not delivered to it while it is absent."
  holds_data = false
  identity   = ["id"]
}

resource "aws_codebuild_project" {
  summary    = "A CodeBuild project."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/codebuild_project"
  rationale  = "Configuration changes apply in place to the next build; running builds are not affected."
  holds_data = false
  identity   = ["id", "arn", "badge_url"]
  free       = ["tags", "tags_all", "description"]
}

# ---------------------------------------------------------------- more of the commonly used types

resource "aws_alb_listener" {
  summary    = "A load balancer listener (alias of aws_lb_listener)."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/lb_listener"
  rationale  = "Port, protocol, certificate and action changes apply in place; deleting it stops traffic on that port."
  holds_data = false
  identity   = ["id", "arn"]
  free       = ["tags", "tags_all"]
}

resource "aws_alb_target_group" {
  summary    = "A load balancer target group (alias of aws_lb_target_group)."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/lb_target_group"
  rationale  = "Health check and attribute changes apply in place; port, protocol or VPC changes replace it, which must detach it from listeners and re-register targets."
  holds_data = false
  identity   = ["id", "arn", "arn_suffix"]
  free       = ["tags", "tags_all"]
}

resource "aws_alb_target_group_attachment" {
  summary    = "The registration of one target in a target group (alias of aws_lb_target_group_attachment)."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/lb_target_group_attachment"
  rationale  = "Deleting or replacing it deregisters the target: it stops receiving traffic after connection draining."
  holds_data = false
  identity   = ["id"]
}

resource "aws_default_security_group" {
  summary    = "The default security group of a VPC (adopted, not created)."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/default_security_group"
  rationale  = "Rules change in place; on destroy the group is only removed from state and keeps its rules."
  holds_data = false
  identity   = ["id", "arn"]
  free       = ["tags", "tags_all"]
}

resource "aws_main_route_table_association" {
  summary    = "Which route table is a VPC's main route table."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/main_route_table_association"
  rationale  = "Changing it re-routes every subnet without an explicit association at once; deleting it restores the original main table."
  holds_data = false
  identity   = ["id"]
}

resource "aws_autoscaling_policy" {
  summary    = "An EC2 Auto Scaling policy."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/autoscaling_policy"
  rationale  = "Targets and steps change in place; the group may then scale."
  holds_data = false
  identity   = ["id", "arn"]
}

resource "aws_appautoscaling_target" {
  summary    = "An Application Auto Scaling scalable target (ECS service, DynamoDB table, ...)."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/appautoscaling_target"
  rationale  = "Capacity bounds change in place; the resource may then scale to fit them."
  holds_data = false
  identity   = ["id", "arn"]
  free       = ["tags", "tags_all"]
}

resource "aws_appautoscaling_policy" {
  summary    = "An Application Auto Scaling policy."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/appautoscaling_policy"
  rationale  = "Targets and steps change in place; the resource may then scale."
  holds_data = false
  identity   = ["id", "arn"]
}

resource "aws_iam_group_membership" {
  summary    = "The members of an IAM group (authoritative)."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/iam_group_membership"
  rationale  = "Membership changes apply at once; users not listed are removed from the group and lose its permissions."
  holds_data = false
  identity   = ["id"]
}

resource "aws_iam_policy_attachment" {
  summary    = "Every attachment of a managed policy (authoritative across the account)."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/iam_policy_attachment"
  rationale  = "Exclusive: users, roles and groups not listed lose the policy, even if attached elsewhere."
  holds_data = false
  identity   = ["id"]
}

resource "aws_iam_group_policy_attachment" {
  summary    = "The attachment of a managed policy to a group."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/iam_group_policy_attachment"
  rationale  = "Deleting or replacing it removes the policy's permissions from the group's members until it is attached again."
  holds_data = false
  identity   = ["id"]
}

resource "aws_iam_user_login_profile" {
  summary    = "The console password of an IAM user."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/iam_user_login_profile"
  rationale  = "Replacement sets a new generated password; deleting it removes console access."
  holds_data = false
  identity   = ["id", "password", "encrypted_password"]
}

resource "aws_ecr_repository_policy" {
  summary    = "An ECR repository policy."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/ecr_repository_policy"
  rationale  = "The policy changes in place and immediately changes who may pull or push."
  holds_data = false
  identity   = ["id"]
}

resource "aws_cloudwatch_log_subscription_filter" {
  summary    = "A CloudWatch Logs subscription filter."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/cloudwatch_log_subscription_filter"
  rationale  = "Pattern and destination change in place; events are not forwarded while it is absent."
  holds_data = false
  identity   = ["id"]
}

resource "aws_sfn_state_machine" {
  summary    = "A Step Functions state machine."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/sfn_state_machine"
  rationale  = "Definition changes apply in place to new executions; deleting it stops running executions."
  holds_data = false
  identity   = ["id", "arn"]
  free       = ["tags", "tags_all"]
}

resource "aws_api_gateway_rest_api" {
  summary    = "An API Gateway REST API."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/api_gateway_rest_api"
  rationale  = "Settings change in place (callers see them after the next deployment); replacement gives a new API id and invoke URL."
  holds_data = false
  identity   = ["id", "arn", "execution_arn", "root_resource_id"]
  free       = ["tags", "tags_all", "description"]
}

resource "aws_apigatewayv2_api" {
  summary    = "An API Gateway HTTP or WebSocket API."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/apigatewayv2_api"
  rationale  = "Settings change in place; replacement gives a new API id and endpoint."
  holds_data = false
  identity   = ["id", "arn", "api_endpoint", "execution_arn"]
  free       = ["tags", "tags_all", "description"]
}

resource "aws_apigatewayv2_stage" {
  summary    = "An API Gateway v2 stage."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/apigatewayv2_stage"
  rationale  = "Settings and deployment change in place; callers see the new deployment at once."
  holds_data = false
  identity   = ["id", "arn", "invoke_url", "execution_arn"]
  free       = ["tags", "tags_all", "description"]
}

resource "aws_wafv2_web_acl" {
  summary    = "A WAF web ACL."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/wafv2_web_acl"
  rationale  = "Rules change in place and allow or block matching requests at once."
  holds_data = false
  identity   = ["id", "arn"]
  free       = ["tags", "tags_all", "description"]
}

resource "aws_cloudtrail" {
  summary    = "A CloudTrail trail."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/cloudtrail"
  rationale  = "Configuration changes apply in place; events are not recorded while logging is off or the trail is absent (delivered logs stay in the bucket)."
  holds_data = false
  identity   = ["id", "arn"]
  free       = ["tags", "tags_all"]
}

resource "aws_db_snapshot" {
  summary    = "A manual RDS DB snapshot."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/db_snapshot"
  rationale  = "A snapshot is a copy of data: deleting it removes that restore point."
  holds_data = true
  identity   = ["id", "db_snapshot_arn"]
  free       = ["tags", "tags_all"]
}

resource "aws_dynamodb_table_item" {
  summary    = "One item in a DynamoDB table."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/dynamodb_table_item"
  rationale  = "The item is data: replacing or deleting it overwrites or removes it (including attributes written outside Terraform)."
  holds_data = true
  identity   = ["id"]
}

resource "aws_docdb_cluster" {
  summary    = "A DocumentDB cluster."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/docdb_cluster"
  rationale  = "The cluster volume holds the data: replacement or deletion loses it unless a final snapshot is taken; engine upgrades restart the instances."
  holds_data = true
  identity   = ["id", "arn", "endpoint", "reader_endpoint", "cluster_resource_id", "hosted_zone_id"]
  free       = ["tags", "tags_all", "apply_immediately", "skip_final_snapshot", "final_snapshot_identifier", "deletion_protection"]

  attribute "engine_version" {
    impact = "interrupt"
    why    = "An engine upgrade restarts the cluster's instances; deferred unless apply_immediately."
  }
}

resource "aws_msk_cluster" {
  summary    = "An Amazon MSK (Kafka) cluster."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/msk_cluster"
  rationale  = "Broker type, version and configuration changes roll the brokers one at a time; replacement or deletion loses every topic and message."
  holds_data = true
  identity   = ["id", "arn", "bootstrap_brokers", "bootstrap_brokers_tls", "zookeeper_connect_string"]
  free       = ["tags", "tags_all"]

  attribute "kafka_version" {
    impact = "interrupt"
    why    = "Brokers are restarted one at a time on the new version."
  }
  attribute "broker_node_group_info.instance_type" {
    impact = "interrupt"
    why    = "Brokers are replaced one at a time with the new type."
  }
}

resource "aws_mq_broker" {
  summary    = "An Amazon MQ broker."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/mq_broker"
  rationale  = "Configuration and version changes need a reboot (apply_immediately reboots at once); replacement or deletion loses queued messages."
  holds_data = true
  identity   = ["id", "arn", "instances"]
  free       = ["tags", "tags_all", "apply_immediately"]

  attribute "engine_version" {
    impact = "interrupt"
    why    = "The broker reboots to upgrade, at once with apply_immediately or in the maintenance window."
  }
  attribute "host_instance_type" {
    impact = "interrupt"
    why    = "The broker reboots to change instance type."
  }
}

resource "aws_fsx_lustre_file_system" {
  summary    = "An FSx for Lustre file system."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/fsx_lustre_file_system"
  rationale  = "The file system holds data: replacement or deletion loses what is not exported to S3. Capacity grows online."
  holds_data = true
  identity   = ["id", "arn", "dns_name", "mount_name", "network_interface_ids"]
  free       = ["tags", "tags_all"]
}

resource "aws_backup_vault" {
  summary    = "An AWS Backup vault."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/backup_vault"
  rationale  = "The vault holds recovery points: deletion (with force_destroy) loses them."
  holds_data = true
  identity   = ["id", "arn"]
  free       = ["tags", "tags_all", "force_destroy"]
}

resource "aws_ssm_document" {
  summary    = "An SSM document (command or automation)."
  source     = "https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/ssm_document"
  rationale  = "Content changes create a new document version in place; running commands are not affected."
  holds_data = false
  identity   = ["id", "arn", "hash", "latest_version"]
  free       = ["tags", "tags_all"]
}
