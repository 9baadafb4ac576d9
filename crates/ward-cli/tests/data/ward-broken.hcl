resource "acme_widget" {
  on_create = "sometimes"
}
