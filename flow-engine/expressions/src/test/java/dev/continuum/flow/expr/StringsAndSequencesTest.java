package dev.continuum.flow.expr;

import static dev.continuum.flow.expr.ExpressionTestSupport.assertEvaluates;
import static dev.continuum.flow.expr.ExpressionTestSupport.assertFails;

import org.junit.jupiter.api.Test;

class StringsAndSequencesTest {

    @Test
    void shouldConcatenateAndRepeatStringsAndLists() throws Exception {
        assertEvaluates("'foo' + ' ' + 'bar'", "\"foo bar\"");
        assertEvaluates("'ab' * 3", "\"ababab\"");
        assertEvaluates("3 * 'ab'", "\"ababab\"");
        assertEvaluates("'ab' * -1", "\"\"");
        assertEvaluates("[1, 2] + [3]", "[1,2,3]");
        assertEvaluates("[0] * 3", "[0,0,0]");
        assertEvaluates("'a' 'b'", "\"ab\"");
    }

    @Test
    void shouldIndexFromEitherEnd() throws Exception {
        assertEvaluates("xs[0]", "{\"xs\": [10, 20, 30]}", "10");
        assertEvaluates("xs[-1]", "{\"xs\": [10, 20, 30]}", "30");
        assertEvaluates("'hello'[1]", "\"e\"");
        assertEvaluates("'hello'[-1]", "\"o\"");
        assertEvaluates("d['key']", "{\"d\": {\"key\": 7}}", "7");
        assertEvaluates("d[k]", "{\"d\": {\"key\": 7}, \"k\": \"key\"}", "7");
    }

    @Test
    void shouldSliceWithPythonBoundsAndSteps() throws Exception {
        assertEvaluates("'hello'[1:]", "\"ello\"");
        assertEvaluates("'hello'[:-1]", "\"hell\"");
        assertEvaluates("'hello'[::-1]", "\"olleh\"");
        assertEvaluates("'hello'[::2]", "\"hlo\"");
        assertEvaluates("'hello'[4:1:-1]", "\"oll\"");
        assertEvaluates("'hello'[10:]", "\"\"");
        assertEvaluates("'hello'[-100:2]", "\"he\"");
        assertEvaluates("[0, 1, 2, 3, 4, 5][1:5:2]", "[1,3]");
        assertEvaluates("[0, 1, 2, 3, 4, 5][-2:]", "[4,5]");
        assertEvaluates("[0, 1, 2, 3, 4, 5][::-2]", "[5,3,1]");
        assertEvaluates("[0, 1, 2][None:None]", "[0,1,2]");
    }

    @Test
    void shouldCountCharactersNotUtf16Units() throws Exception {
        assertEvaluates("len('a\\U0001F600b')", "3");
        assertEvaluates("'a\\U0001F600b'[1]", "\"\uD83D\uDE00\"");
        assertEvaluates("'a\\U0001F600b'[::-1]", "\"b\uD83D\uDE00a\"");
    }

    @Test
    void shouldDecodeStringEscapes() throws Exception {
        assertEvaluates("'it\\'s'", "\"it's\"");
        assertEvaluates("\"tab\\there\"", "\"tab\\there\"");
        assertEvaluates("'\\x41\\u00e9'", "\"Aé\"");
        assertEvaluates("r'C:\\dir'", "\"C:\\\\dir\"");
        assertEvaluates("'\\d'", "\"\\\\d\"");
    }

    @Test
    void shouldStripSplitAndJoin() throws Exception {
        assertEvaluates("'/path/to/dir/'.rstrip('/')", "\"/path/to/dir\"");
        assertEvaluates("'  x  '.strip()", "\"x\"");
        assertEvaluates("'xxhixx'.lstrip('x')", "\"hixx\"");
        assertEvaluates("'a,b,,c'.split(',')", "[\"a\",\"b\",\"\",\"c\"]");
        assertEvaluates("'  a  b  '.split()", "[\"a\",\"b\"]");
        assertEvaluates("'a b c'.split(None, 1)", "[\"a\",\"b c\"]");
        assertEvaluates("'a/b/c'.rsplit('/', 1)", "[\"a/b\",\"c\"]");
        assertEvaluates("'a/b/c'.split('/', maxsplit=1)", "[\"a\",\"b/c\"]");
        assertEvaluates("'/'.join(['a', 'b', 'c'])", "\"a/b/c\"");
        assertEvaluates("''.join([])", "\"\"");
    }

    @Test
    void shouldTestAndTransformStrings() throws Exception {
        assertEvaluates("'file.h5'.endswith('.h5')", "true");
        assertEvaluates("'file.h5'.endswith(('.tif', '.h5'))", "true");
        assertEvaluates("'/~/x'.startswith('/~/')", "true");
        assertEvaluates("'a-b-c'.replace('-', '_')", "\"a_b_c\"");
        assertEvaluates("'a-b-c'.replace('-', '_', 1)", "\"a_b-c\"");
        assertEvaluates("'MiXeD'.lower() + 'MiXeD'.upper()", "\"mixedMIXED\"");
        assertEvaluates("'hello world'.title()", "\"Hello World\"");
        assertEvaluates("'hello'.find('l') + 'hello'.rfind('l')", "5");
        assertEvaluates("'hello'.find('z')", "-1");
        assertEvaluates("'banana'.count('an')", "2");
        assertEvaluates("'42'.zfill(5)", "\"00042\"");
        assertEvaluates("'2024'.isdigit()", "true");
        assertEvaluates("'run_001.h5'.removesuffix('.h5')", "\"run_001\"");
        assertEvaluates("'k=v=w'.partition('=')", "[\"k\",\"=\",\"v=w\"]");
    }

    @Test
    void shouldFormatStringsWithFormatMethod() throws Exception {
        assertEvaluates("'{} of {}'.format(1, 2)", "\"1 of 2\"");
        assertEvaluates("'{1}-{0}'.format('a', 'b')", "\"b-a\"");
        assertEvaluates("'{name}!'.format(name='run')", "\"run!\"");
        assertEvaluates("'{:.2f}'.format(3.14159)", "\"3.14\"");
        assertEvaluates("'{:05d}'.format(42)", "\"00042\"");
        assertEvaluates("'{:>6}|{:<4}|{:^5}'.format('ab', 'c', 'x')", "\"    ab|c   |  x  \"");
        assertEvaluates("'{:,}'.format(1234567)", "\"1,234,567\"");
        assertEvaluates("'{:.1%}'.format(0.256)", "\"25.6%\"");
        assertEvaluates("'{:e}'.format(12345.678)", "\"1.234568e+04\"");
        assertEvaluates("'{{literal}} {}'.format(1)", "\"{literal} 1\"");
        assertEvaluates("'{0[1]} {d[k]}'.format(['a', 'b'], d={'k': 'v'})", "\"b v\"");
        assertEvaluates("'{}'.format(None)", "\"None\"");
    }

    @Test
    void shouldFormatStringsWithPercentOperator() throws Exception {
        assertEvaluates("'%s-%d' % ('run', 7)", "\"run-7\"");
        assertEvaluates("'%05.1f' % 3.14159", "\"003.1\"");
        assertEvaluates("'%(a)s' % {'a': 1}", "\"1\"");
        assertEvaluates("'100%%' % ()", "\"100%\"");
    }

    @Test
    void shouldFailOnBadIndexing() {
        assertFails("[1, 2][2]", "list index out of range");
        assertFails("'ab'[-3]", "string index out of range");
        assertFails("[1]['a']", "list indices must be integers, not str");
        assertFails("{'k': 1}['missing']", "key 'missing' not found in dict");
        assertFails("5[0]", "'int' object is not subscriptable");
        assertFails("[1, 2][::0]", "slice step cannot be zero");
        assertFails("'a,b'.split('')", "empty separator");
        assertFails("'-'.join([1, 2])", "sequence item 0: expected str instance, int found");
    }
}
