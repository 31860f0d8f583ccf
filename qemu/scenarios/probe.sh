# Accelerator probe: reaching this line is the whole test.
echo "probe: userspace reached on $(uname -r)"
