"""``python -m overseer.cli``: the ``overseer`` command."""

from overseer.cli.command import main

raise SystemExit(main())
