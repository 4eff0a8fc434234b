module github.com/stacksim/stacksim

go 1.26.8

require (
	github.com/looplab/fsm v1.0.3
	github.com/spf13/cobra v1.10.2
	go.uber.org/zap v1.28.0
)

require (
	github.com/inconshreveable/mousetrap v1.1.0 // indirect
	github.com/santhosh-tekuri/jsonschema/v6 v6.0.3 // indirect
	github.com/spf13/pflag v1.0.9 // indirect
	go.uber.org/multierr v1.10.0 // indirect
	go.yaml.in/yaml/v3 v3.0.6 // indirect
	golang.org/x/text v0.14.0 // indirect
)
