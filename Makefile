# stacksim — developer tasks. `make help` lists them.
GO       ?= go
PKGS     ?= ./...
CORPUS   ?= ../shared/corpus/templates
SCHEMAS  ?= ../shared/schemas/us-east-1
BENCH    ?= .
BENCHTIME ?= 1s
SOAK_WORLDS ?= 30000
SOAK_FROM   ?= 1
SOAK_PROCS  ?= 1
SOAK_PERSISTED ?= 400
SOAK_FLUSHED ?= 400

.PHONY: help build test vet lint examples fmt-check bench bench-engine bench-scale bench-serve bench-session bench-webview soak docs docs-check corpus corpus-create fixtures registry clean

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk 'BEGIN {FS = ":.*## "}; {printf "  %-12s %s\n", $$1, $$2}'

build: ## build bin/stacksim
	$(GO) build -o bin/stacksim ./cmd/stacksim

vet: ## go vet every package
	$(GO) vet $(PKGS)

test: vet examples ## go vet, then every test with the race detector, then the registry-wide tests in full (without it)
	$(GO) test -race -count=1 $(PKGS)
	$(GO) test -count=1 -run '^(TestRegistrySweep|TestRegistrySchemasParse|TestShippedSchemasPassCheck)$$' ./engine ./resources

examples: ## build the TypeScript handler example (npm ci + tsc; skipped without node)
	bash scripts/build_handler_examples.sh

STATICCHECK ?= honnef.co/go/tools/cmd/staticcheck@v0.8.2

lint: ## staticcheck every package (its default checks but ST1005: see staticcheck.conf), pinned, fetched through the Go module proxy
	$(GO) run $(STATICCHECK) $(PKGS)

fmt-check: ## fail when gofmt would change a file
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt would change:"; echo "$$out"; exit 1; fi

soak: ## the randomized worlds over SOAK_WORLDS seeds from SOAK_FROM (30000 from 1), SOAK_PERSISTED worlds kept in a state file and SOAK_FLUSHED worlds with a buffer of 8 rows, each compared with the same world in memory (400 each); no -race, GOMAXPROCS=SOAK_PROCS; not part of test
	GOMAXPROCS=$(SOAK_PROCS) $(GO) test -count=1 -timeout 0 -run '^TestRandomWorlds(Persisted|Flushed)?$$' ./engine -args -random.worlds=$(SOAK_WORLDS) -random.from=$(SOAK_FROM) -random.all -random.persisted=$(SOAK_PERSISTED) -random.flushed=$(SOAK_FLUSHED)

bench: ## run every benchmark (BENCH=regexp, BENCHTIME=1s)
	$(GO) test -run '^$$' -bench '$(BENCH)' -benchtime $(BENCHTIME) -benchmem $(PKGS)

bench-scale: build ## a command on one stack of an account of 10,000 resources vs one of 500 (RUNS=7)
	python3 scripts/bench_scale.py --bin bin/stacksim --runs $(or $(RUNS),7)

bench-engine: ## the in-process creates of issues 13 and 18, each in its own process, in turn (ROUNDS=9, BASE=git revision to compare)
	python3 scripts/bench_engine.py --rounds $(or $(ROUNDS),9) $(if $(BASE),--base $(BASE))

bench-serve: build ## stacksim serve beside moto_server through boto3: create/delete of 500 resources, reads under load, memory
	python3 scripts/bench_serve.py --bin bin/stacksim

bench-session: build ## a long serve session: memory and time per create+delete over CYCLES cycles (800)
	python3 scripts/bench_session.py --bin bin/stacksim --cycles $(or $(CYCLES),800)

bench-webview: ## the web view at 10,000 resources in Chromium (first paint, last event, memory as pages open and close)
	STACKSIM_WEBVIEW_SCALE=1 $(GO) test -count=1 -timeout 20m -run '^TestServeWebViewAtScale$$' -v ./cmd/stacksim

docs: ## regenerate docs/states.md from the state machine
	$(GO) run ./cmd/stacksim states --output markdown > docs/states.md.tmp && mv docs/states.md.tmp docs/states.md

docs-check: ## fail when docs/states.md is stale
	@$(GO) run ./cmd/stacksim states --output markdown > docs/states.md.check; \
	if ! cmp -s docs/states.md docs/states.md.check; then \
	  diff -u docs/states.md docs/states.md.check | head -40; rm -f docs/states.md.check; \
	  echo "docs/states.md is stale: run 'make docs' and commit it"; exit 1; fi; \
	rm -f docs/states.md.check

fixtures: ## replay every fixture with the command line and compare its golden log
	$(GO) run ./cmd/stacksim run fixtures/*/scenario.yaml --golden golden.log > /dev/null

registry: ## regenerate resources/registry/us-east-1.pack from the registry schemas (SCHEMAS=dir)
	$(GO) run ./resources/internal/registrygen -schemas $(SCHEMAS) -out resources/registry/us-east-1.pack

corpus: ## validate every template of the corpus (CORPUS=dir)
	$(GO) run ./template/internal/corpus -dir $(CORPUS)

corpus-create: ## create and delete a stack of every template of the corpus (CORPUS=dir, SCHEMAS=dir, CORPUS_MIN=n: fail below n created)
	$(GO) run ./cmd/internal/corpuscreate -dir $(CORPUS) $(if $(SCHEMAS),-schemas $(SCHEMAS)) $(if $(CORPUS_MIN),-min $(CORPUS_MIN))

clean: ## remove build output
	rm -rf bin
