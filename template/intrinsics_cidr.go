package template

import (
	"net/netip"
	"strconv"
)

// Fn::Cidr: [ipBlock, count, cidrBits] returns count consecutive subnets of
// ipBlock, each with cidrBits host bits: cidrBits 8 in a /16 gives /24s
// ("192.168.0.0/16", 2, 8 is 192.168.0.0/24, 192.168.1.0/24, as
// CloudFormation answers). IPv6 blocks work the same way on 128 bits.

func (e *evaluator) cidr(n, arg *Node) (any, error) {
	var vals [3]any
	for i := range vals {
		v, err := e.eval(arg.Items[i])
		if err != nil {
			return nil, err
		}
		if u, ok := v.(Unknown); ok {
			return u, nil
		}
		vals[i] = v
	}
	block, _ := scalarText(vals[0])
	countText, _ := scalarText(vals[1])
	bitsText, _ := scalarText(vals[2])
	count, err1 := strconv.Atoi(countText)
	bits, err2 := strconv.Atoi(bitsText)
	if err1 != nil || err2 != nil {
		return nil, e.fail(n, msgCidrArgs)
	}
	subnets, msg := cidrSubnets(block, count, bits)
	if msg != "" {
		return nil, e.fail(n, "Template error: %s", msg)
	}
	out := make([]any, len(subnets))
	for i, s := range subnets {
		out[i] = s
	}
	return out, nil
}

// cidrSubnets computes Fn::Cidr, or returns why it cannot.
func cidrSubnets(block string, count, hostBits int) ([]string, string) {
	prefix, err := netip.ParsePrefix(block)
	if err != nil {
		return nil, "Fn::Cidr requires a CIDR block as its first parameter, got '" + block + "'"
	}
	prefix = prefix.Masked()
	width := prefix.Addr().BitLen()
	if count < 1 || count > 256 {
		return nil, "Fn::Cidr count must be between 1 and 256, got " + strconv.Itoa(count)
	}
	if hostBits < 0 || hostBits > width {
		return nil, "Fn::Cidr cidrBits must be between 0 and " + strconv.Itoa(width) + ", got " + strconv.Itoa(hostBits)
	}
	newLen := width - hostBits
	if newLen < prefix.Bits() {
		return nil, "Fn::Cidr cannot make /" + strconv.Itoa(newLen) + " subnets in " + block
	}
	if avail := newLen - prefix.Bits(); avail < 9 && count > 1<<avail {
		return nil, "Fn::Cidr cannot make " + strconv.Itoa(count) + " /" + strconv.Itoa(newLen) +
			" subnets in " + block + ": it holds " + strconv.Itoa(1<<avail)
	}
	base := prefix.Addr().As16()
	out := make([]string, 0, count)
	for i := 0; i < count; i++ {
		addr := addShifted(base, uint64(i), hostBits)
		a := netip.AddrFrom16(addr)
		if prefix.Addr().Is4() {
			a = a.Unmap()
		}
		out = append(out, netip.PrefixFrom(a, newLen).String())
	}
	return out, ""
}

// addShifted adds v << shift to a 128-bit big-endian address. For an IPv4
// address (IPv4-mapped in 16 bytes) the shift stays within the low 32 bits.
func addShifted(addr [16]byte, v uint64, shift int) [16]byte {
	// Represent v << shift as 128 bits (hi, lo).
	var hi, lo uint64
	switch {
	case shift >= 128:
		return addr
	case shift >= 64:
		hi = v << (shift - 64)
	case shift == 0:
		lo = v
	default:
		lo = v << shift
		hi = v >> (64 - shift)
	}
	var aHi, aLo uint64
	for i := 0; i < 8; i++ {
		aHi = aHi<<8 | uint64(addr[i])
		aLo = aLo<<8 | uint64(addr[i+8])
	}
	sumLo := aLo + lo
	carry := uint64(0)
	if sumLo < aLo {
		carry = 1
	}
	sumHi := aHi + hi + carry
	var out [16]byte
	for i := 7; i >= 0; i-- {
		out[i] = byte(sumHi)
		out[i+8] = byte(sumLo)
		sumHi >>= 8
		sumLo >>= 8
	}
	return out
}
