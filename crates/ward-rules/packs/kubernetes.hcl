# ward built-in pack: hashicorp/kubernetes.
#
# Kubernetes objects change in place through the API server; what it costs depends on the
# controller. Workload template changes roll pods (in place, rolling update); a bare pod's image
# change restarts the container. Replacement is read from the plan.
#
# Schema: checked by crates/ward-rules/tests/selfcheck.rs against schemas/kubernetes.json (from
# the CDK for Terraform package @cdktf/provider-kubernetes, generated from
# `providers schema -json`; see scripts/extract-schemas).

pack {
  name     = "kubernetes"
  version  = "2026.11.0"
  provider = "hashicorp/kubernetes"
  schema   = "checked"
}

resource "kubernetes_namespace" {
  summary    = "A namespace."
  source     = "https://registry.terraform.io/providers/hashicorp/kubernetes/latest/docs/resources/namespace"
  rationale  = "Deleting or replacing a namespace deletes every object in it, persistent volume claims included."
  holds_data = true
  identity   = ["id", "metadata.uid"]
  free       = ["metadata.annotations"]

  attribute "metadata.labels" {
    impact = "in-place"
    why    = "Namespace labels are read by network policies and Pod Security admission: they can change what is allowed."
  }
}

resource "kubernetes_namespace_v1" {
  summary    = "A namespace."
  source     = "https://registry.terraform.io/providers/hashicorp/kubernetes/latest/docs/resources/namespace_v1"
  rationale  = "Deleting or replacing a namespace deletes every object in it, persistent volume claims included."
  holds_data = true
  identity   = ["id", "metadata.uid"]
  free       = ["metadata.annotations"]

  attribute "metadata.labels" {
    impact = "in-place"
    why    = "Namespace labels are read by network policies and Pod Security admission: they can change what is allowed."
  }
}

resource "kubernetes_deployment" {
  summary    = "A Deployment."
  source     = "https://registry.terraform.io/providers/hashicorp/kubernetes/latest/docs/resources/deployment"
  rationale  = "Pod template changes roll the pods in place (rolling update); deleting or replacing the Deployment deletes its pods."
  holds_data = false
  identity   = ["id", "metadata.uid"]
  free       = ["metadata.labels", "metadata.annotations"]

  attribute "spec.template" {
    impact = "in-place"
    why    = "A changed pod template starts a rolling update: pods are replaced gradually within the update strategy's limits."
  }

  attribute "spec.template.spec.container.image" {
    impact = "in-place"
    why    = "A new image rolls the pods: each is replaced by one running the new image."
  }

  attribute "spec.replicas" {
    impact = "in-place"
    why    = "Pods are added or removed to reach the new count."
  }
}

resource "kubernetes_deployment_v1" {
  summary    = "A Deployment."
  source     = "https://registry.terraform.io/providers/hashicorp/kubernetes/latest/docs/resources/deployment_v1"
  rationale  = "Pod template changes roll the pods in place (rolling update); deleting or replacing the Deployment deletes its pods."
  holds_data = false
  identity   = ["id", "metadata.uid"]
  free       = ["metadata.labels", "metadata.annotations"]

  attribute "spec.template" {
    impact = "in-place"
    why    = "A changed pod template starts a rolling update: pods are replaced gradually within the update strategy's limits."
  }

  attribute "spec.template.spec.container.image" {
    impact = "in-place"
    why    = "A new image rolls the pods: each is replaced by one running the new image."
  }

  attribute "spec.replicas" {
    impact = "in-place"
    why    = "Pods are added or removed to reach the new count."
  }
}

resource "kubernetes_daemonset" {
  summary    = "A DaemonSet."
  source     = "https://registry.terraform.io/providers/hashicorp/kubernetes/latest/docs/resources/daemonset"
  rationale  = "Pod template changes roll the pods in place (rolling update); deleting or replacing the DaemonSet deletes its pods."
  holds_data = false
  identity   = ["id", "metadata.uid"]
  free       = ["metadata.labels", "metadata.annotations"]

  attribute "spec.template" {
    impact = "in-place"
    why    = "A changed pod template starts a rolling update: pods are replaced gradually within the update strategy's limits."
  }

  attribute "spec.template.spec.container.image" {
    impact = "in-place"
    why    = "A new image rolls the pods: each is replaced by one running the new image."
  }
}

resource "kubernetes_daemon_set_v1" {
  summary    = "A DaemonSet."
  source     = "https://registry.terraform.io/providers/hashicorp/kubernetes/latest/docs/resources/daemon_set_v1"
  rationale  = "Pod template changes roll the pods in place (rolling update); deleting or replacing the DaemonSet deletes its pods."
  holds_data = false
  identity   = ["id", "metadata.uid"]
  free       = ["metadata.labels", "metadata.annotations"]

  attribute "spec.template" {
    impact = "in-place"
    why    = "A changed pod template starts a rolling update: pods are replaced gradually within the update strategy's limits."
  }

  attribute "spec.template.spec.container.image" {
    impact = "in-place"
    why    = "A new image rolls the pods: each is replaced by one running the new image."
  }
}

resource "kubernetes_stateful_set" {
  summary    = "A StatefulSet."
  source     = "https://registry.terraform.io/providers/hashicorp/kubernetes/latest/docs/resources/stateful_set"
  rationale  = "Pod template changes restart the pods one at a time in order (RollingUpdate) or at their next deletion (OnDelete); deleting the StatefulSet deletes its pods but keeps the volume claims its templates created."
  holds_data = false
  identity   = ["id", "metadata.uid"]
  free       = ["metadata.labels", "metadata.annotations"]

  attribute "spec.template" {
    impact = "in-place"
    why    = "Pods are restarted one by one, in reverse ordinal order, with the new template."
  }

  attribute "spec.template.spec.container.image" {
    impact = "in-place"
    why    = "Pods are restarted one by one, in reverse ordinal order, with the new image."
  }

  attribute "spec.replicas" {
    impact = "in-place"
    why    = "Pods are added or removed from the highest ordinal; their volume claims are kept."
  }
}

resource "kubernetes_stateful_set_v1" {
  summary    = "A StatefulSet."
  source     = "https://registry.terraform.io/providers/hashicorp/kubernetes/latest/docs/resources/stateful_set_v1"
  rationale  = "Pod template changes restart the pods one at a time in order (RollingUpdate) or at their next deletion (OnDelete); deleting the StatefulSet deletes its pods but keeps the volume claims its templates created."
  holds_data = false
  identity   = ["id", "metadata.uid"]
  free       = ["metadata.labels", "metadata.annotations"]

  attribute "spec.template" {
    impact = "in-place"
    why    = "Pods are restarted one by one, in reverse ordinal order, with the new template."
  }

  attribute "spec.template.spec.container.image" {
    impact = "in-place"
    why    = "Pods are restarted one by one, in reverse ordinal order, with the new image."
  }

  attribute "spec.replicas" {
    impact = "in-place"
    why    = "Pods are added or removed from the highest ordinal; their volume claims are kept."
  }
}

resource "kubernetes_pod" {
  summary    = "A bare pod (no controller)."
  source     = "https://registry.terraform.io/providers/hashicorp/kubernetes/latest/docs/resources/pod"
  rationale  = "Most pod spec fields are immutable (the plan replaces the pod); the container image can change in place, which restarts that container."
  holds_data = false
  identity   = ["id", "metadata.uid"]
  free       = ["metadata.annotations"]

  attribute "spec.container.image" {
    impact = "interrupt"
    why    = "The kubelet kills the container and starts it again with the new image."
  }

  attribute "metadata.labels" {
    impact = "in-place"
    why    = "Pod labels decide which services and policies select the pod."
  }
}

resource "kubernetes_pod_v1" {
  summary    = "A bare pod (no controller)."
  source     = "https://registry.terraform.io/providers/hashicorp/kubernetes/latest/docs/resources/pod_v1"
  rationale  = "Most pod spec fields are immutable (the plan replaces the pod); the container image can change in place, which restarts that container."
  holds_data = false
  identity   = ["id", "metadata.uid"]
  free       = ["metadata.annotations"]

  attribute "spec.container.image" {
    impact = "interrupt"
    why    = "The kubelet kills the container and starts it again with the new image."
  }

  attribute "metadata.labels" {
    impact = "in-place"
    why    = "Pod labels decide which services and policies select the pod."
  }
}

resource "kubernetes_job" {
  summary    = "A Job."
  source     = "https://registry.terraform.io/providers/hashicorp/kubernetes/latest/docs/resources/job"
  rationale  = "The pod template is immutable; deleting the Job deletes its pods, stopping any still running."
  holds_data = false
  identity   = ["id", "metadata.uid"]
  free       = ["metadata.labels", "metadata.annotations"]
}

resource "kubernetes_job_v1" {
  summary    = "A Job."
  source     = "https://registry.terraform.io/providers/hashicorp/kubernetes/latest/docs/resources/job_v1"
  rationale  = "The pod template is immutable; deleting the Job deletes its pods, stopping any still running."
  holds_data = false
  identity   = ["id", "metadata.uid"]
  free       = ["metadata.labels", "metadata.annotations"]
}

resource "kubernetes_cron_job" {
  summary    = "A CronJob."
  source     = "https://registry.terraform.io/providers/hashicorp/kubernetes/latest/docs/resources/cron_job"
  rationale  = "Schedule and template changes apply to the next run; running jobs are not affected."
  holds_data = false
  identity   = ["id", "metadata.uid"]
  free       = ["metadata.labels", "metadata.annotations"]
}

resource "kubernetes_cron_job_v1" {
  summary    = "A CronJob."
  source     = "https://registry.terraform.io/providers/hashicorp/kubernetes/latest/docs/resources/cron_job_v1"
  rationale  = "Schedule and template changes apply to the next run; running jobs are not affected."
  holds_data = false
  identity   = ["id", "metadata.uid"]
  free       = ["metadata.labels", "metadata.annotations"]
}

resource "kubernetes_service" {
  summary    = "A Service."
  source     = "https://registry.terraform.io/providers/hashicorp/kubernetes/latest/docs/resources/service"
  rationale  = "Selector and port changes re-route traffic at once; replacement gives a new cluster IP and, for type LoadBalancer, a new external load balancer and address."
  holds_data = false
  identity   = ["id", "metadata.uid", "spec.cluster_ip", "spec.cluster_ips", "status.load_balancer.ingress"]
  free       = ["metadata.labels"]

  attribute "metadata.annotations" {
    impact = "in-place"
    why    = "Service annotations configure cloud load balancers: changing them can reconfigure or recreate the external load balancer."
  }
}

resource "kubernetes_service_v1" {
  summary    = "A Service."
  source     = "https://registry.terraform.io/providers/hashicorp/kubernetes/latest/docs/resources/service_v1"
  rationale  = "Selector and port changes re-route traffic at once; replacement gives a new cluster IP and, for type LoadBalancer, a new external load balancer and address."
  holds_data = false
  identity   = ["id", "metadata.uid", "spec.cluster_ip", "spec.cluster_ips", "status.load_balancer.ingress"]
  free       = ["metadata.labels"]

  attribute "metadata.annotations" {
    impact = "in-place"
    why    = "Service annotations configure cloud load balancers: changing them can reconfigure or recreate the external load balancer."
  }
}

resource "kubernetes_ingress_v1" {
  summary    = "An Ingress."
  source     = "https://registry.terraform.io/providers/hashicorp/kubernetes/latest/docs/resources/ingress_v1"
  rationale  = "Rules change in place and re-route requests at once; replacement may give the load balancer a new address."
  holds_data = false
  identity   = ["id", "metadata.uid", "status.load_balancer.ingress"]
  free       = ["metadata.labels"]

  attribute "metadata.annotations" {
    impact = "in-place"
    why    = "Ingress annotations configure the ingress controller (TLS, timeouts, rewrites)."
  }
}

resource "kubernetes_config_map" {
  summary    = "A ConfigMap."
  source     = "https://registry.terraform.io/providers/hashicorp/kubernetes/latest/docs/resources/config_map"
  rationale  = "Data changes in place: mounted files update after a delay, environment variables only when pods restart; nothing restarts on its own."
  holds_data = false
  identity   = ["id", "metadata.uid"]
  free       = ["metadata.labels", "metadata.annotations"]
}

resource "kubernetes_config_map_v1" {
  summary    = "A ConfigMap."
  source     = "https://registry.terraform.io/providers/hashicorp/kubernetes/latest/docs/resources/config_map_v1"
  rationale  = "Data changes in place: mounted files update after a delay, environment variables only when pods restart; nothing restarts on its own."
  holds_data = false
  identity   = ["id", "metadata.uid"]
  free       = ["metadata.labels", "metadata.annotations"]
}

resource "kubernetes_secret" {
  summary    = "A Secret."
  source     = "https://registry.terraform.io/providers/hashicorp/kubernetes/latest/docs/resources/secret"
  rationale  = "Data changes in place: mounted files update after a delay, environment variables only when pods restart; a service account token secret gets a new token when replaced."
  holds_data = false
  identity   = ["id", "metadata.uid"]
  free       = ["metadata.labels", "metadata.annotations"]
}

resource "kubernetes_secret_v1" {
  summary    = "A Secret."
  source     = "https://registry.terraform.io/providers/hashicorp/kubernetes/latest/docs/resources/secret_v1"
  rationale  = "Data changes in place: mounted files update after a delay, environment variables only when pods restart; a service account token secret gets a new token when replaced."
  holds_data = false
  identity   = ["id", "metadata.uid"]
  free       = ["metadata.labels", "metadata.annotations"]
}

resource "kubernetes_persistent_volume_claim" {
  summary    = "A PersistentVolumeClaim."
  source     = "https://registry.terraform.io/providers/hashicorp/kubernetes/latest/docs/resources/persistent_volume_claim"
  rationale  = "The claim's volume holds data: deleting or replacing the claim deletes the volume when its reclaim policy is Delete (the default for dynamic provisioning)."
  holds_data = true
  identity   = ["id", "metadata.uid"]
  free       = ["metadata.labels", "metadata.annotations"]

  attribute "spec.resources.requests" {
    impact = "in-place"
    why    = "A larger request expands the volume online when the storage class allows expansion."
  }
}

resource "kubernetes_persistent_volume_claim_v1" {
  summary    = "A PersistentVolumeClaim."
  source     = "https://registry.terraform.io/providers/hashicorp/kubernetes/latest/docs/resources/persistent_volume_claim_v1"
  rationale  = "The claim's volume holds data: deleting or replacing the claim deletes the volume when its reclaim policy is Delete (the default for dynamic provisioning)."
  holds_data = true
  identity   = ["id", "metadata.uid"]
  free       = ["metadata.labels", "metadata.annotations"]

  attribute "spec.resources.requests" {
    impact = "in-place"
    why    = "A larger request expands the volume online when the storage class allows expansion."
  }
}

resource "kubernetes_persistent_volume" {
  summary    = "A PersistentVolume."
  source     = "https://registry.terraform.io/providers/hashicorp/kubernetes/latest/docs/resources/persistent_volume"
  rationale  = "The volume holds data: deleting it with reclaim policy Delete deletes the backing storage."
  holds_data = true
  identity   = ["id", "metadata.uid"]
  free       = ["metadata.labels", "metadata.annotations"]
}

resource "kubernetes_persistent_volume_v1" {
  summary    = "A PersistentVolume."
  source     = "https://registry.terraform.io/providers/hashicorp/kubernetes/latest/docs/resources/persistent_volume_v1"
  rationale  = "The volume holds data: deleting it with reclaim policy Delete deletes the backing storage."
  holds_data = true
  identity   = ["id", "metadata.uid"]
  free       = ["metadata.labels", "metadata.annotations"]
}

resource "kubernetes_storage_class" {
  summary    = "A StorageClass."
  source     = "https://registry.terraform.io/providers/hashicorp/kubernetes/latest/docs/resources/storage_class"
  rationale  = "Parameters are immutable; existing volumes keep what they were provisioned with."
  holds_data = false
  identity   = ["id", "metadata.uid"]
  free       = ["metadata.labels", "metadata.annotations"]
}

resource "kubernetes_storage_class_v1" {
  summary    = "A StorageClass."
  source     = "https://registry.terraform.io/providers/hashicorp/kubernetes/latest/docs/resources/storage_class_v1"
  rationale  = "Parameters are immutable; existing volumes keep what they were provisioned with."
  holds_data = false
  identity   = ["id", "metadata.uid"]
  free       = ["metadata.labels", "metadata.annotations"]
}

resource "kubernetes_service_account" {
  summary    = "A ServiceAccount."
  source     = "https://registry.terraform.io/providers/hashicorp/kubernetes/latest/docs/resources/service_account"
  rationale  = "Replacement invalidates tokens issued for the old account; pods using it must be restarted to get new ones."
  holds_data = false
  identity   = ["id", "metadata.uid"]
  free       = ["metadata.labels", "metadata.annotations"]
}

resource "kubernetes_service_account_v1" {
  summary    = "A ServiceAccount."
  source     = "https://registry.terraform.io/providers/hashicorp/kubernetes/latest/docs/resources/service_account_v1"
  rationale  = "Replacement invalidates tokens issued for the old account; pods using it must be restarted to get new ones."
  holds_data = false
  identity   = ["id", "metadata.uid"]
  free       = ["metadata.labels", "metadata.annotations"]
}

resource "kubernetes_role" {
  summary    = "An RBAC Role."
  source     = "https://registry.terraform.io/providers/hashicorp/kubernetes/latest/docs/resources/role"
  rationale  = "Permission changes apply at once; while it is deleted or being replaced, the subjects lack those permissions."
  holds_data = false
  identity   = ["id", "metadata.uid"]
  free       = ["metadata.labels", "metadata.annotations"]
}

resource "kubernetes_role_v1" {
  summary    = "An RBAC Role."
  source     = "https://registry.terraform.io/providers/hashicorp/kubernetes/latest/docs/resources/role_v1"
  rationale  = "Permission changes apply at once; while it is deleted or being replaced, the subjects lack those permissions."
  holds_data = false
  identity   = ["id", "metadata.uid"]
  free       = ["metadata.labels", "metadata.annotations"]
}

resource "kubernetes_cluster_role" {
  summary    = "An RBAC ClusterRole."
  source     = "https://registry.terraform.io/providers/hashicorp/kubernetes/latest/docs/resources/cluster_role"
  rationale  = "Permission changes apply at once; while it is deleted or being replaced, the subjects lack those permissions."
  holds_data = false
  identity   = ["id", "metadata.uid"]
  free       = ["metadata.labels", "metadata.annotations"]
}

resource "kubernetes_cluster_role_v1" {
  summary    = "An RBAC ClusterRole."
  source     = "https://registry.terraform.io/providers/hashicorp/kubernetes/latest/docs/resources/cluster_role_v1"
  rationale  = "Permission changes apply at once; while it is deleted or being replaced, the subjects lack those permissions."
  holds_data = false
  identity   = ["id", "metadata.uid"]
  free       = ["metadata.labels", "metadata.annotations"]
}

resource "kubernetes_role_binding" {
  summary    = "An RBAC RoleBinding."
  source     = "https://registry.terraform.io/providers/hashicorp/kubernetes/latest/docs/resources/role_binding"
  rationale  = "Permission changes apply at once; while it is deleted or being replaced, the subjects lack those permissions."
  holds_data = false
  identity   = ["id", "metadata.uid"]
  free       = ["metadata.labels", "metadata.annotations"]
}

resource "kubernetes_role_binding_v1" {
  summary    = "An RBAC RoleBinding."
  source     = "https://registry.terraform.io/providers/hashicorp/kubernetes/latest/docs/resources/role_binding_v1"
  rationale  = "Permission changes apply at once; while it is deleted or being replaced, the subjects lack those permissions."
  holds_data = false
  identity   = ["id", "metadata.uid"]
  free       = ["metadata.labels", "metadata.annotations"]
}

resource "kubernetes_cluster_role_binding" {
  summary    = "An RBAC ClusterRoleBinding."
  source     = "https://registry.terraform.io/providers/hashicorp/kubernetes/latest/docs/resources/cluster_role_binding"
  rationale  = "Permission changes apply at once; while it is deleted or being replaced, the subjects lack those permissions."
  holds_data = false
  identity   = ["id", "metadata.uid"]
  free       = ["metadata.labels", "metadata.annotations"]
}

resource "kubernetes_cluster_role_binding_v1" {
  summary    = "An RBAC ClusterRoleBinding."
  source     = "https://registry.terraform.io/providers/hashicorp/kubernetes/latest/docs/resources/cluster_role_binding_v1"
  rationale  = "Permission changes apply at once; while it is deleted or being replaced, the subjects lack those permissions."
  holds_data = false
  identity   = ["id", "metadata.uid"]
  free       = ["metadata.labels", "metadata.annotations"]
}

resource "kubernetes_network_policy" {
  summary    = "A NetworkPolicy."
  source     = "https://registry.terraform.io/providers/hashicorp/kubernetes/latest/docs/resources/network_policy"
  rationale  = "Rule changes apply at once and allow or drop matching pod traffic."
  holds_data = false
  identity   = ["id", "metadata.uid"]
  free       = ["metadata.labels", "metadata.annotations"]
}

resource "kubernetes_network_policy_v1" {
  summary    = "A NetworkPolicy."
  source     = "https://registry.terraform.io/providers/hashicorp/kubernetes/latest/docs/resources/network_policy_v1"
  rationale  = "Rule changes apply at once and allow or drop matching pod traffic."
  holds_data = false
  identity   = ["id", "metadata.uid"]
  free       = ["metadata.labels", "metadata.annotations"]
}

resource "kubernetes_horizontal_pod_autoscaler_v2" {
  summary    = "A HorizontalPodAutoscaler."
  source     = "https://registry.terraform.io/providers/hashicorp/kubernetes/latest/docs/resources/horizontal_pod_autoscaler_v2"
  rationale  = "Bounds and targets change in place; the workload may then scale."
  holds_data = false
  identity   = ["id", "metadata.uid"]
  free       = ["metadata.labels", "metadata.annotations"]
}

resource "kubernetes_pod_disruption_budget_v1" {
  summary    = "A PodDisruptionBudget."
  source     = "https://registry.terraform.io/providers/hashicorp/kubernetes/latest/docs/resources/pod_disruption_budget_v1"
  rationale  = "Changes apply at once to later voluntary evictions (drains, upgrades)."
  holds_data = false
  identity   = ["id", "metadata.uid"]
  free       = ["metadata.labels", "metadata.annotations"]
}

resource "kubernetes_priority_class" {
  summary    = "A PriorityClass."
  source     = "https://registry.terraform.io/providers/hashicorp/kubernetes/latest/docs/resources/priority_class"
  rationale  = "Pods keep the priority they were admitted with; changes affect new pods."
  holds_data = false
  identity   = ["id", "metadata.uid"]
  free       = ["metadata.labels", "metadata.annotations"]
}

resource "kubernetes_priority_class_v1" {
  summary    = "A PriorityClass."
  source     = "https://registry.terraform.io/providers/hashicorp/kubernetes/latest/docs/resources/priority_class_v1"
  rationale  = "Pods keep the priority they were admitted with; changes affect new pods."
  holds_data = false
  identity   = ["id", "metadata.uid"]
  free       = ["metadata.labels", "metadata.annotations"]
}

resource "kubernetes_resource_quota" {
  summary    = "A ResourceQuota."
  source     = "https://registry.terraform.io/providers/hashicorp/kubernetes/latest/docs/resources/resource_quota"
  rationale  = "Limits apply to later requests; running pods are not evicted."
  holds_data = false
  identity   = ["id", "metadata.uid"]
  free       = ["metadata.labels", "metadata.annotations"]
}

resource "kubernetes_resource_quota_v1" {
  summary    = "A ResourceQuota."
  source     = "https://registry.terraform.io/providers/hashicorp/kubernetes/latest/docs/resources/resource_quota_v1"
  rationale  = "Limits apply to later requests; running pods are not evicted."
  holds_data = false
  identity   = ["id", "metadata.uid"]
  free       = ["metadata.labels", "metadata.annotations"]
}

resource "kubernetes_limit_range" {
  summary    = "A LimitRange."
  source     = "https://registry.terraform.io/providers/hashicorp/kubernetes/latest/docs/resources/limit_range"
  rationale  = "Defaults and limits apply to pods created later."
  holds_data = false
  identity   = ["id", "metadata.uid"]
  free       = ["metadata.labels", "metadata.annotations"]
}

resource "kubernetes_limit_range_v1" {
  summary    = "A LimitRange."
  source     = "https://registry.terraform.io/providers/hashicorp/kubernetes/latest/docs/resources/limit_range_v1"
  rationale  = "Defaults and limits apply to pods created later."
  holds_data = false
  identity   = ["id", "metadata.uid"]
  free       = ["metadata.labels", "metadata.annotations"]
}

resource "kubernetes_labels" {
  summary    = "Labels on an existing object (server-side apply)."
  source     = "https://registry.terraform.io/providers/hashicorp/kubernetes/latest/docs/resources/labels"
  rationale  = "Only labels change; but labels on pods or namespaces can change what selects them."
  holds_data = false
  identity   = ["id"]

  attribute "labels" {
    impact = "in-place"
    why    = "Labels can be read by selectors (services, policies)."
  }
}

resource "kubernetes_annotations" {
  summary    = "Annotations on an existing object (server-side apply)."
  source     = "https://registry.terraform.io/providers/hashicorp/kubernetes/latest/docs/resources/annotations"
  rationale  = "Only annotations change; some controllers act on annotations (e.g. a deployment's pod template annotations roll its pods)."
  holds_data = false
  identity   = ["id"]

  attribute "template_annotations" {
    impact = "in-place"
    why    = "Pod template annotations on a workload start a rolling update."
  }
}

resource "kubernetes_config_map_v1_data" {
  summary    = "Data keys of an existing ConfigMap (server-side apply)."
  source     = "https://registry.terraform.io/providers/hashicorp/kubernetes/latest/docs/resources/config_map_v1_data"
  rationale  = "Data changes in place; consumers see it as for a ConfigMap."
  holds_data = false
  identity   = ["id"]
}

resource "kubernetes_manifest" {
  summary    = "Any Kubernetes object, given as a manifest."
  source     = "https://registry.terraform.io/providers/hashicorp/kubernetes/latest/docs/resources/manifest"
  rationale  = "ward cannot tell which kind the manifest holds, so deleting or replacing it is assumed to lose data (it may be a volume claim, a namespace or a custom resource with state)."
  holds_data = true
  identity   = ["object"]
}
