#!/bin/sh
# The tests on Debian's own kernels, booted under qemu-system (TCG), for
# the machines of scripts/arch.tab.  In every machine PID 1 runs:
#   smoke            told the backend the kernel must give (VRANDOM_SMOKE_
#                    EXPECT: the table's backend column)
#   elf32, hostile/{closed_fds,threads,rlimit,seccomp}  where they build
#   hostile/drop     pages dropped, and under mlockall, where the vDSO serves
#   vrandom info     whose backend and symbol@version are checked here
#   count loop       the getrandom system calls of test/musl-loop.c's
#                    4-byte draws, named vrandom_getrandom (test/vm/count.c):
#                    100,000 and at most 4 where the vDSO serves (the first
#                    state's seed, reseeds), 100 and one each where not
# smoke's, elf32's and drop's long loops at a tenth (VRANDOM_TEST_SCALE):
# the host's builds run them whole; emulated, they took half of each boot.
# smoke's die at full power where the vDSO serves; where each draw is a
# system call it is left out (said so): the cross suite runs the same
# path at full power under qemu-user, harden's valgrind on x86_64.
# The programs are cross-test.sh's, built static in its trees.  Two
# machines boot at a time.  Prints a table of what each kernel gave.
# Usage: vm-test.sh [machine...]
# VR_VM_TIMEOUT: seconds a machine may take to power off (default 900).
. "$(cd "$(dirname "$0")" && pwd)/lib.sh"
vr_src || exit 1
vm=$VR_BUILD/vm
rm -f "$vm/ready"; mkdir -p "$vm"
machines=${*:-$(arches system)}

# Each machine's programs, built static once per architecture.
for m in $machines; do
	arch "$m" && [ -n "$a_system" ] || { echo "vm-test: $m boots no kernel (arch.tab)" >&2; exit 2; }
	cross_tree "$m" && cross_make $vm_progs || { ok 1 "$m: the programs build"; continue; }
	d=$vm/$m
	rm -rf "$d"
	vm_tests "$d" || { ok 1 "$m: count and loop build"; continue; }
	echo "$m" >>"$vm/ready"
done

# Two lanes, each taking the next machine not yet taken (mkdir is the
# lock), so that a long boot does not hold the other back.
lane() {
	for m in $(cat "$vm/ready" 2>/dev/null); do
		mkdir "$vm/$m/claimed" 2>/dev/null || continue
		boot "$m" "$vm/$m" >"$vm/$m/boot.out" 2>&1; echo $? >"$vm/$m/boot.rc"
	done
}
lane & lane; wait

row() { printf '%s|' "$@" | sed 's/|$//'; echo; }
table=$(row machine kernel backend symbol@version "state size" stride "pages after threads" "system calls: calls" checks)
for m in $(cat "$vm/ready" 2>/dev/null); do
	arch "$m"
	d=$vm/$m c=$vm/$m/console.log
	cat "$d/boot.out"
	case $(cat "$d/boot.rc") in
	0) ok 0 "$m: booted, every program passed" ;;
	77) missing "$m: $(sed -n "s/^SKIP: $m: //p" "$d/boot.out")"; continue ;;
	*) ok 1 "$m: booted, every program passed" ;;
	esac
	backend=$(info_field "$c" backend) symbol=$(info_field "$c" 'vdso symbol')
	[ "$backend" = "$a_backend" ]; ok $? "$m: vrandom info: backend '$backend', this kernel gives '$a_backend'"
	if [ "$a_backend" = vdso ]; then
		[ "$symbol" = "$a_symbol" ]; ok $? "$m: vrandom info: vdso symbol '$symbol', this kernel exports '$a_symbol'"
		# Both drop cases ran: the vDSO's own pages, and under mlockall.
		grep -qE "^PASS: $m: ([A-Z_]+=[^ ]+ )*drop \(" "$d/boot.out" && grep -q '^pages dropped under mlockall: ok' "$c" &&
			! grep -q 'mlockall: .*skipped' "$c"
		ok $? "$m: drop ran in full"
	fi
	set -- $(grep -v '^vm-init: ' "$c" | tally_of)
	passed=$((passed + $1)) failed=$((failed + $2))
	table="$table
$(row "$m" "$(info_field "$c" kernel | awk '{ print $2 }')" "$backend" "${symbol:--}" \
	"$(info_field "$c" 'state size' | sed 's/ bytes//')" "$(info_field "$c" 'state stride' | sed 's/ bytes//')" \
	"$(sed -n 's/^arena after the threads: \([0-9]*\) pages.*/\1/p' "$c" | head -n 1)" \
	"$(sed -n 's/^count: \([0-9]*\) getrandom .*/\1/p' "$c" | head -n 1): $(sed -n 's/^vm-init: run: count [0-9]* [0-9]* loop //p' "$c")" "$1")"
done
echo "== what the kernels gave"
printf '%s\n' "$table" | columns
finish
