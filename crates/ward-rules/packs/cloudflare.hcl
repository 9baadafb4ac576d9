# ward built-in pack: cloudflare/cloudflare (provider 5.x).
#
# Written for the 5.x resource names (cloudflare_dns_record, cloudflare_workers_script,
# cloudflare_zero_trust_*); the 4.x names (cloudflare_record, cloudflare_worker_script,
# cloudflare_tunnel, ...) are not classified: there is no 4.x schema to check them against.
#
# Schema: checked by crates/ward-rules/tests/selfcheck.rs against schemas/cloudflare.json (from
# the CDK for Terraform package @cdktf/provider-cloudflare, generated from
# `providers schema -json`; see scripts/extract-schemas).

pack {
  name     = "cloudflare"
  version  = "2026.11.0"
  provider = "cloudflare/cloudflare"
  schema   = "checked"
}

resource "cloudflare_zone" {
  summary    = "A Cloudflare zone (a domain)."
  source     = "https://registry.terraform.io/providers/cloudflare/cloudflare/latest/docs/resources/zone"
  rationale  = "The zone holds its DNS records and settings: deletion loses them all, and a new zone gets new name servers that the registrar must be pointed at."
  holds_data = true
  identity   = ["id", "name_servers", "verification_key"]
}

resource "cloudflare_dns_record" {
  summary    = "A DNS record in a Cloudflare zone."
  source     = "https://registry.terraform.io/providers/cloudflare/cloudflare/latest/docs/resources/dns_record"
  rationale  = "Content, TTL and proxy status change in place and take effect at Cloudflare's edge within seconds; deleting the record makes the name stop resolving."
  holds_data = false
  identity   = ["id"]
  free       = ["comment", "tags"]

  attribute "proxied" {
    impact = "in-place"
    why    = "Turning the proxy on or off changes the addresses the name resolves to and whether traffic passes through Cloudflare."
  }
}

resource "cloudflare_zone_setting" {
  summary    = "One setting of a Cloudflare zone."
  source     = "https://registry.terraform.io/providers/cloudflare/cloudflare/latest/docs/resources/zone_setting"
  rationale  = "The setting changes in place at the edge at once (e.g. TLS mode, caching)."
  holds_data = false
  identity   = ["id"]
}

resource "cloudflare_zone_dnssec" {
  summary    = "DNSSEC for a Cloudflare zone."
  source     = "https://registry.terraform.io/providers/cloudflare/cloudflare/latest/docs/resources/zone_dnssec"
  rationale  = "Deleting it disables DNSSEC: if the DS record is still at the registrar, validating resolvers fail to resolve the zone."
  holds_data = false
  identity   = ["id", "ds", "digest", "public_key"]
}

resource "cloudflare_ruleset" {
  summary    = "A Cloudflare ruleset (WAF, transforms, redirects, cache rules...)."
  source     = "https://registry.terraform.io/providers/cloudflare/cloudflare/latest/docs/resources/ruleset"
  rationale  = "Rules change in place and apply to matching requests at once."
  holds_data = false
  identity   = ["id"]
  free       = ["description"]
}

resource "cloudflare_page_rule" {
  summary    = "A Cloudflare page rule."
  source     = "https://registry.terraform.io/providers/cloudflare/cloudflare/latest/docs/resources/page_rule"
  rationale  = "Actions change in place and apply to matching URLs at once."
  holds_data = false
  identity   = ["id"]
}

resource "cloudflare_load_balancer" {
  summary    = "A Cloudflare load balancer (a hostname)."
  source     = "https://registry.terraform.io/providers/cloudflare/cloudflare/latest/docs/resources/load_balancer"
  rationale  = "Pools and steering change in place and re-route traffic at once; deleting it stops the hostname from being balanced."
  holds_data = false
  identity   = ["id"]
  free       = ["description"]
}

resource "cloudflare_load_balancer_pool" {
  summary    = "A Cloudflare load balancer origin pool."
  source     = "https://registry.terraform.io/providers/cloudflare/cloudflare/latest/docs/resources/load_balancer_pool"
  rationale  = "Origins change in place; traffic moves at once."
  holds_data = false
  identity   = ["id"]
  free       = ["description"]
}

resource "cloudflare_load_balancer_monitor" {
  summary    = "A Cloudflare load balancer health monitor."
  source     = "https://registry.terraform.io/providers/cloudflare/cloudflare/latest/docs/resources/load_balancer_monitor"
  rationale  = "Checks change in place; a wrong check marks healthy origins down."
  holds_data = false
  identity   = ["id"]
  free       = ["description"]
}

resource "cloudflare_r2_bucket" {
  summary    = "An R2 object storage bucket."
  source     = "https://registry.terraform.io/providers/cloudflare/cloudflare/latest/docs/resources/r2_bucket"
  rationale  = "The bucket holds objects: replacement or deletion loses them."
  holds_data = true
  identity   = ["id", "name"]
}

resource "cloudflare_workers_kv_namespace" {
  summary    = "A Workers KV namespace."
  source     = "https://registry.terraform.io/providers/cloudflare/cloudflare/latest/docs/resources/workers_kv_namespace"
  rationale  = "The namespace holds key-value pairs: replacement or deletion loses them."
  holds_data = true
  identity   = ["id"]
}

resource "cloudflare_d1_database" {
  summary    = "A D1 SQL database."
  source     = "https://registry.terraform.io/providers/cloudflare/cloudflare/latest/docs/resources/d1_database"
  rationale  = "The database holds data: replacement or deletion loses it."
  holds_data = true
  identity   = ["id", "uuid"]
}

resource "cloudflare_queue" {
  summary    = "A Cloudflare Queue."
  source     = "https://registry.terraform.io/providers/cloudflare/cloudflare/latest/docs/resources/queue"
  rationale  = "The queue holds messages: replacement or deletion loses those not yet consumed."
  holds_data = true
  identity   = ["id", "queue_id"]
}

resource "cloudflare_workers_script" {
  summary    = "A Cloudflare Worker script."
  source     = "https://registry.terraform.io/providers/cloudflare/cloudflare/latest/docs/resources/workers_script"
  rationale  = "Code and bindings deploy in place; new requests run the new version at once."
  holds_data = false
  identity   = ["id", "etag"]
}

resource "cloudflare_workers_route" {
  summary    = "A route sending matching requests to a Worker."
  source     = "https://registry.terraform.io/providers/cloudflare/cloudflare/latest/docs/resources/workers_route"
  rationale  = "The pattern or script changes in place; requests are re-routed at once."
  holds_data = false
  identity   = ["id"]
}

resource "cloudflare_workers_custom_domain" {
  summary    = "A custom domain for a Worker."
  source     = "https://registry.terraform.io/providers/cloudflare/cloudflare/latest/docs/resources/workers_custom_domain"
  rationale  = "Deleting or replacing it removes the DNS record and certificate that serve the Worker on that hostname."
  holds_data = false
  identity   = ["id"]
}

resource "cloudflare_pages_project" {
  summary    = "A Cloudflare Pages project."
  source     = "https://registry.terraform.io/providers/cloudflare/cloudflare/latest/docs/resources/pages_project"
  rationale  = "Build settings change in place for the next deployment; replacement deletes the project with its deployments and gives a new pages.dev subdomain."
  holds_data = false
  identity   = ["id", "subdomain"]
}

resource "cloudflare_zero_trust_tunnel_cloudflared" {
  summary    = "A Cloudflare Tunnel."
  source     = "https://registry.terraform.io/providers/cloudflare/cloudflare/latest/docs/resources/zero_trust_tunnel_cloudflared"
  rationale  = "Replacement creates a tunnel with a new id and secret: running cloudflared connectors stop carrying traffic until reconfigured."
  holds_data = false
  identity   = ["id", "tunnel_secret"]
}

resource "cloudflare_zero_trust_tunnel_cloudflared_config" {
  summary    = "The ingress configuration of a Cloudflare Tunnel."
  source     = "https://registry.terraform.io/providers/cloudflare/cloudflare/latest/docs/resources/zero_trust_tunnel_cloudflared_config"
  rationale  = "Ingress rules change in place and are pushed to the connectors, re-routing requests at once."
  holds_data = false
  identity   = ["id"]
}

resource "cloudflare_zero_trust_access_application" {
  summary    = "A Cloudflare Access application."
  source     = "https://registry.terraform.io/providers/cloudflare/cloudflare/latest/docs/resources/zero_trust_access_application"
  rationale  = "Policies and settings change in place; deleting it removes Access protection from the application's domain."
  holds_data = false
  identity   = ["id", "aud"]
}

resource "cloudflare_zero_trust_access_policy" {
  summary    = "A reusable Cloudflare Access policy."
  source     = "https://registry.terraform.io/providers/cloudflare/cloudflare/latest/docs/resources/zero_trust_access_policy"
  rationale  = "Rule changes apply at once to every application using the policy."
  holds_data = false
  identity   = ["id"]
}

resource "cloudflare_api_token" {
  summary    = "A Cloudflare API token."
  source     = "https://registry.terraform.io/providers/cloudflare/cloudflare/latest/docs/resources/api_token"
  rationale  = "Policy changes apply in place; replacement issues a new token value and revokes the old one, so every client using it fails."
  holds_data = false
  identity   = ["id", "value"]
}

resource "cloudflare_origin_ca_certificate" {
  summary    = "A Cloudflare Origin CA certificate."
  source     = "https://registry.terraform.io/providers/cloudflare/cloudflare/latest/docs/resources/origin_ca_certificate"
  rationale  = "Replacement issues a new certificate that must be installed on the origin; the old one is revoked."
  holds_data = false
  identity   = ["id", "certificate"]
}

resource "cloudflare_list" {
  summary    = "A Cloudflare list (IPs, hostnames, redirects) used by rules."
  source     = "https://registry.terraform.io/providers/cloudflare/cloudflare/latest/docs/resources/list"
  rationale  = "Items change in place and every rule using the list sees them at once."
  holds_data = false
  identity   = ["id"]
  free       = ["description"]
}

resource "cloudflare_account_member" {
  summary    = "A member of a Cloudflare account."
  source     = "https://registry.terraform.io/providers/cloudflare/cloudflare/latest/docs/resources/account_member"
  rationale  = "Role changes apply at once; deleting the member removes their access."
  holds_data = false
  identity   = ["id"]
}
