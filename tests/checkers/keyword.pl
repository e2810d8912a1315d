#!/usr/bin/perl
# the Keyword checker in perl: SUPPORTED when a passage holds the claim's last word
use strict; use warnings; use JSON::PP;
my $json = JSON::PP->new->utf8->canonical;
while (my $line = <STDIN>) {
    my $item = $json->decode($line);
    my @words = split ' ', lc $item->{claim};
    my $last = @words ? $words[-1] : ''; $last =~ s/\.//g;
    my @hit = grep { $last ne '' && index(lc $item->{passages}[$_], $last) >= 0 } 0 .. $#{$item->{passages}};
    print $json->encode({id => $item->{id}, label => (@hit ? 'SUPPORTED' : 'NOT_IN_REFERENCE'), used => [map { $_ + 0 } @hit]}), "\n";
}
