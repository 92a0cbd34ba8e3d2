module github.com/hookwire/hookwire/bindings-go

go 1.24
