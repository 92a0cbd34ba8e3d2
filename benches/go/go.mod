module github.com/hookwire/hookwire/benches/go

go 1.24

require github.com/hookwire/hookwire/bindings-go v0.0.0

replace github.com/hookwire/hookwire/bindings-go => ../../bindings-go
