# Sourced, not run: the machines scripts/vm-kernel.sh, vm-boot.sh and
# vm-test.sh know, each a Debian kernel and the qemu-system that boots it.
vm_machines="aarch64 ppc64le s390x x86_64 x86_64-6.1 riscv64 armhf i686 mipsel"

# vm_machine MACHINE: sets
#   vm_debarch vm_suite vm_package  Debian architecture, suite and kernel
#                                   metapackage (issue 17's table)
#   vm_image                        vmlinux or vmlinuz: the file qemu boots
#   vm_triplet vm_layer vm_cross    cross compiler, src/asm directory,
#                                   build/cross-* tree (cross-test.sh's names)
#   vm_qemu vm_flags vm_console     qemu-system, its machine flags, console
#   vm_expect vm_symbol             backend smoke must get; symbol@version
#                                   `vrandom info` must report (vdso only)
# Returns 1 for an unknown machine.
vm_machine() {
	vm_image=vmlinuz vm_expect=syscall vm_symbol= vm_console=ttyS0 vm_cross=$1
	# 1 GiB each, one or two CPUs: two machines run at a time.
	case $1 in
	aarch64)
		vm_debarch=arm64 vm_suite=trixie vm_package=linux-image-arm64
		vm_triplet=aarch64-linux-gnu vm_layer=aarch64
		# pauth-impdef: the same pointer authentication, far cheaper in TCG.
		vm_qemu=qemu-system-aarch64 vm_flags="-M virt -cpu max,pauth-impdef=on -smp 2"
		vm_console=ttyAMA0
		vm_expect=vdso vm_symbol=__kernel_getrandom@LINUX_2.6.39 ;;
	ppc64le)
		# trixie's ppc64el kernels were not served here; backports' were.
		vm_debarch=ppc64el vm_suite=bookworm-backports vm_package=linux-image-powerpc64le
		vm_triplet=powerpc64le-linux-gnu vm_layer=powerpc64 vm_image=vmlinux
		vm_cross=powerpc64
		vm_qemu=qemu-system-ppc64 vm_flags="-M pseries,cap-cfpc=broken,cap-sbbc=broken,cap-ibs=broken,cap-ccf-assist=off -cpu power9 -smp 2" vm_console=hvc0
		vm_expect=vdso vm_symbol=__kernel_getrandom@LINUX_2.6.15 ;;
	s390x)
		vm_debarch=s390x vm_suite=bookworm-backports vm_package=linux-image-s390x
		vm_triplet=s390x-linux-gnu vm_layer=s390x
		vm_qemu=qemu-system-s390x vm_flags="-M s390-ccw-virtio -cpu max -smp 2"
		vm_console=ttysclp0
		vm_expect=vdso vm_symbol=__kernel_getrandom@LINUX_2.6.29 ;;
	x86_64|x86_64-6.1)
		vm_debarch=amd64 vm_suite=trixie vm_package=linux-image-amd64
		vm_triplet=x86_64-linux-gnu vm_layer=x86_64 vm_cross=x86_64
		vm_qemu=qemu-system-x86_64 vm_flags="-cpu max -smp 2"
		vm_expect=vdso vm_symbol=__vdso_getrandom@LINUX_2.6
		# Debian 12's own kernel: a real kernel without vDSO getrandom.
		[ "$1" = x86_64 ] || vm_suite=bookworm vm_expect=syscall vm_symbol= ;;
	riscv64)
		vm_debarch=riscv64 vm_suite=trixie vm_package=linux-image-riscv64
		vm_triplet=riscv64-linux-gnu vm_layer=riscv64 vm_image=vmlinux
		vm_qemu=qemu-system-riscv64 vm_flags="-M virt -bios default -smp 2" ;;
	armhf)
		vm_debarch=armhf vm_suite=trixie vm_package=linux-image-armmp
		vm_triplet=arm-linux-gnueabihf vm_layer=arm
		vm_qemu=qemu-system-arm vm_flags="-M virt -smp 2" vm_console=ttyAMA0 ;;
	i686)
		vm_debarch=i386 vm_suite=bookworm vm_package=linux-image-686
		vm_triplet=i686-linux-gnu vm_layer=i386
		vm_qemu=qemu-system-i386 vm_flags="-cpu max -smp 2" ;;
	mipsel)
		# Malta reached init only with one CPU and at most 1 GiB.
		vm_debarch=mipsel vm_suite=bookworm vm_package=linux-image-4kc-malta
		vm_triplet=mipsel-linux-gnu vm_layer=mips
		vm_qemu=qemu-system-mipsel vm_flags="-M malta -smp 1" ;;
	*)
		return 1 ;;
	esac
}
