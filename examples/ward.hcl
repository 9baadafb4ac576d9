# The example deployment (deployment/, its plans in plans/) runs on fakecloud, ward's test
# provider, which no built-in pack covers: its rules are a user rule file, loaded here the way a
# team loads rules for its own providers (docs/config.md, `rules`).
#
#   ward plan --config examples/ward.hcl examples/plans/hazards.json

rules {
  files = ["rules/fakecloud.hcl"]
}
