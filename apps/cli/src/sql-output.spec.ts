import { renderSqlResult, textTable } from './sql-output';

describe('sql output', () => {
  it('aligns a table: text left, numbers right, NULL for null, the row count last', () => {
    expect(textTable([{ url: 'https://a.example/', requests: 7, age: null }, { url: 'https://a.example/long-page', requests: 1234, age: 3 }])).toBe(
      ['url                         | requests |  age', '----------------------------+----------+-----', 'https://a.example/          |        7 | NULL', 'https://a.example/long-page |     1234 |    3', '(2 rows)'].join('\n'),
    );
    expect(textTable([])).toBe('(0 rows)');
    expect(textTable([{ a: 'x\ny', b: [1, 2] }])).toBe(['a   | b', '----+------', 'x y | [1,2]', '(1 row)'].join('\n'));
  });

  it('prints the engine CSV as is and JSON rows as an array', () => {
    expect(renderSqlResult('csv', '"a"\n1\n')).toBe('"a"\n1');
    expect(renderSqlResult('json', { rows: [{ a: 1 }], rowCount: 1 })).toBe('[\n  {\n    "a": 1\n  }\n]');
  });
});
