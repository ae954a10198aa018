# Sourced, not run: a private apt configuration derived from the machine's
# own archive entries, so that apt-get can fetch what the machine's apt
# setup does not list (source packages, another suite, another
# architecture's packages) without changing that setup.  Used by
# apt-source.sh and vm-kernel.sh.
#
# apt_private DIR TYPE [SUITE [ARCH]]
#   Writes DIR/apt.conf, to be handed to apt-get as `-c DIR/apt.conf`:
#   sources, lists and caches all under DIR; the machine's sources.list and
#   dpkg status out of the picture.  TYPE is deb or deb-src.  SUITE (e.g.
#   trixie, bookworm-backports) takes the entries of this release's suite
#   and names that suite instead.  ARCH (a Debian architecture, e.g. arm64)
#   makes the entries and apt serve that architecture only.
#   Returns 1 with a reason on standard error when the machine's sources
#   hold no deb entry to derive from.
apt_private() {
	_ap_dir=$1 _ap_type=$2 _ap_suite=${3:-} _ap_arch=${4:-}
	_ap_base=$(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}")
	rm -rf "$_ap_dir/sources"
	mkdir -p "$_ap_dir/sources" "$_ap_dir/lists/partial" "$_ap_dir/cache/archives/partial"

	# One-line sources: "deb [options] uri suite components".  Another
	# suite: only the lines naming this release's own suite.
	for _ap_f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[ -f "$_ap_f" ] || continue
		awk -v base="$_ap_base" -v suite="$_ap_suite" -v type="$_ap_type" \
			-v arch="$_ap_arch" '
			$1 != "deb" { next }
			{
				$1 = type
				if (arch != "") {
					# An arch= option of the line gives way to ARCH.
					for (j = 2; j <= NF && $2 ~ /^\[/; j++) {
						last = $j ~ /\]$/
						sub(/arch=[^ \]]*/, "", $j)
						if (last) break
					}
					if ($2 ~ /^\[/) sub(/^\[/, "[arch=" arch " ", $2)
					else $1 = $1 " [arch=" arch "]"
				}
			}
			suite == "" { print; next }
			{ for (j = 2; j <= NF; j++) if ($j == base) { $j = suite; print; next } }
		' "$_ap_f"
	done >"$_ap_dir/sources/derived.list"

	# deb822 sources: the stanzas of Types deb, with TYPE; for another
	# suite only those that list this release's own suite, with that suite
	# replaced; for another architecture, an Architectures line for it.
	for _ap_f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$_ap_f" ] || continue
		awk -v base="$_ap_base" -v suite="$_ap_suite" -v type="$_ap_type" \
			-v arch="$_ap_arch" '
			function flush() {
				if (st != "" && deb && (suite == "" || hit))
					printf "%s%s\n", st, arch == "" ? "" : "Architectures: " arch "\n"
				st = ""; deb = 0; hit = 0
			}
			/^[ \t]*$/ { flush(); next }
			/^#/ { next }
			/^Architectures:/ && arch != "" { next }
			/^Types:/ { if ($0 ~ /[ \t]deb([ \t]|$)/) deb = 1; $0 = "Types: " type }
			/^Suites:/ && suite != "" {
				for (j = 2; j <= NF; j++) if ($j == base) hit = 1
				$0 = "Suites: " suite
			}
			{ st = st $0 "\n" }
			END { flush() }
		' "$_ap_f"
	done >"$_ap_dir/sources/derived.sources"

	[ -s "$_ap_dir/sources/derived.list" ] || [ -s "$_ap_dir/sources/derived.sources" ] || {
		echo "apt-private: no deb entries in the machine's apt sources to derive from" >&2
		return 1
	}
	{
		echo "Dir::Etc::SourceList \"/dev/null\";"
		echo "Dir::Etc::SourceParts \"$_ap_dir/sources\";"
		echo "Dir::State::Lists \"$_ap_dir/lists\";"
		echo "Dir::Cache \"$_ap_dir/cache\";"
		echo "APT::Sandbox::User \"root\";"
		if [ -n "$_ap_arch" ]; then
			# The machine's installed packages are of no concern here.
			echo "Dir::State::status \"/dev/null\";"
			echo "APT::Architecture \"$_ap_arch\";"
			echo "#clear APT::Architectures;"
			echo "APT::Architectures { \"$_ap_arch\"; };"
		fi
	} >"$_ap_dir/apt.conf"
}
