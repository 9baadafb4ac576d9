resource "acme_widget" {
  summary = "A test widget."
  on_create = "free"
}
