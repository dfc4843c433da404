# The two commands in README.md. Each sets up what it needs on a fresh machine.
#   make example   scan a bundled example log (sets up .venv first)
#   make test      run the whole test suite (sets up .venv, torch CPU, Chromium first)
#   make check     the developer loop: lint and the fast tests (not slow, browser or gpu), under a minute
# Both run the tests on TEST_JOBS worker processes (pytest-xdist; whole modules per worker, see
# tests/conftest.py); `make test TEST_JOBS=0` runs them in this one process.
PYTHON ?= python3
TEST_JOBS ?= 2
VENV ?= .venv
BIN := $(VENV)/bin
EXAMPLE ?= examples/vllm-rtx5090-unknown-sf.log

.PHONY: example test check install install-test clean

example: install
	@$(BIN)/fp8triage scan $(EXAMPLE); code=$$?; \
	  if [ $$code -eq 3 ] || [ $$code -eq 0 ]; then exit 0; else exit $$code; fi

test: install-test
	$(BIN)/python -m pytest -q -p no:cacheprovider -n $(TEST_JOBS)

check: install-test
	$(BIN)/ruff check --no-cache fp8triage tests tools bench repro_kernels
	$(BIN)/python -m pytest -q -p no:cacheprovider -n $(TEST_JOBS) -m "not slow and not browser and not gpu"

install: $(VENV)/.installed

install-test: $(VENV)/.installed-test

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e .
	@# an editable install compiles no bytecode, and where PYTHONDONTWRITEBYTECODE is set (many images) none is
	@# ever written: every run would compile the package again (about 0.15 s of each scan's start-up)
	$(BIN)/python -m compileall -q fp8triage >/dev/null
	touch $@

# torch==2.13.0 is the CPU build that this kind of machine serves from a local file; the
# repro kernels' CPU emulation tests need it. Chromium is for the HTML report's browser test.
$(VENV)/.installed-test: $(VENV)/.installed
	$(BIN)/python -m pip install -q -e '.[test]' 'torch==2.13.0' numpy
	@command -v chromium >/dev/null 2>&1 || { \
	  if command -v apt-get >/dev/null 2>&1 && [ "$$(id -u)" = 0 ]; then \
	    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null) \
	      || echo "warning: could not install chromium; the browser test will be skipped"; \
	  else echo "warning: chromium not found and cannot be installed here; the browser test will be skipped"; fi; }
	touch $@

clean:
	rm -rf $(VENV) build dist *.egg-info
