# Everything here holds data: removing this file is the data-loss scenario.

resource "fakecloud_volume" "db_data" {
  name    = "db-data"
  size_gb = 50
  tags = {
    env = "prod"
  }
}

resource "fakecloud_attachment" "db_data" {
  instance_id = fakecloud_instance.db.id
  volume_id   = fakecloud_volume.db_data.id
}

resource "fakecloud_bucket" "backups" {
  name = "backups"
  tags = {
    env = "prod"
  }
}
