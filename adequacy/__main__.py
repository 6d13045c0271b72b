from adequacy.cli import main

main()
