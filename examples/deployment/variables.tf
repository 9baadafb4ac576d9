variable "db_admin_password" {
  description = "Administrator password of the db instance. The default is a canary, not a secret: ward's tests check that it never appears in any ward output."
  type        = string
  sensitive   = true
  default     = "WARD-CANARY-db-admin-password"
}
