output "web_ips" {
  value = fakecloud_instance.web[*].ip
}

output "db_address" {
  value = fakecloud_instance.db.ip
}
